// Case-insensitive globs over the forms of a path (its name, relative and absolute forms), for
// handlers that judge file paths. Part of hookbox:paths (./index.ts).

/** What a path is matched as: its file name, relative forms, and its absolute form when known. */
export interface PathForms {
  name: string;
  paths: string[];
  absolute: string | undefined;
}

/** Globs: ** any depth, * and ? within a name, {a,b}, [abc]; as a RegExp source, or null if malformed. */
export function globSource(glob: string): string | null {
  let re = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*" && glob[i + 1] === "*") {
      if (glob[i + 2] === "/") {
        re += "(?:.*/)?";
        i += 2;
      } else {
        re += ".*";
        i += 1;
      }
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "{") {
      braces++;
      re += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      re += ")";
    } else if (c === "," && braces > 0) re += "|";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
        re += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  if (braces !== 0) return null;
  try {
    new RegExp(re);
    return re;
  } catch {
    return null;
  }
}

export type Labelled = readonly (readonly [string, string])[];

/** A list of globs compiled into three alternations (by file name, by path, by absolute path). */
interface GlobSet {
  list: { glob: string; label: string; kind: "name" | "path" | "abs"; re: RegExp }[];
  any: { name: RegExp | null; path: RegExp | null; abs: RegExp | null };
}

const globSets = new Map<string, GlobSet>();

export function compileGlobs(globs: Labelled): GlobSet {
  const key = JSON.stringify(globs);
  const cached = globSets.get(key);
  if (cached) return cached;
  const list: GlobSet["list"] = [];
  const sources: Record<"name" | "path" | "abs", string[]> = { name: [], path: [], abs: [] };
  for (const [glob, label] of globs) {
    const source = globSource(glob);
    if (source === null) continue; // a malformed glob matches nothing (it is listed in the README)
    const kind = glob.startsWith("/") || /^[a-z]:\//i.test(glob) ? "abs" : glob.includes("/") ? "path" : "name";
    list.push({ glob, label, kind, re: new RegExp(`^${source}$`, "i") });
    sources[kind].push(source);
  }
  const join = (parts: string[]): RegExp | null => (parts.length > 0 ? new RegExp(`^(?:${parts.join("|")})$`, "i") : null);
  const set: GlobSet = { list, any: { name: join(sources.name), path: join(sources.path), abs: join(sources.abs) } };
  if (globSets.size > 32) globSets.clear();
  globSets.set(key, set);
  return set;
}

/** The first glob that matches, as [glob, label]; one alternation test per form on the common path (no match). */
export function firstMatch(globs: Labelled, forms: PathForms): readonly [string, string] | undefined {
  const set = compileGlobs(globs);
  const test = (kind: "name" | "path" | "abs", re: RegExp | null): boolean =>
    re !== null &&
    (kind === "name"
      ? re.test(forms.name)
      : kind === "abs"
        ? forms.absolute !== undefined && re.test(forms.absolute)
        : forms.paths.some((p) => re.test(p)));
  if (!test("name", set.any.name) && !test("path", set.any.path) && !test("abs", set.any.abs)) return undefined;
  const hit = set.list.find((g) => test(g.kind, g.re));
  return hit ? [hit.glob, hit.label] : undefined;
}

export function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}
