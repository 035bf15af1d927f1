import type { NativeEvent } from "../../core/events/types.ts";
import { compileGlob, type Glob } from "../../core/text/glob.ts";
import { normalizePath, resolvePath } from "../../core/text/posix-path.ts";
import { eventPaths } from "./tool-paths.ts";

/**
 * `Read(specifier)` and `Edit(specifier)` of a permission rule, as a hook selector: Claude Code's
 * gitignore-style paths (code.claude.com/docs/en/permissions, "Read and Edit"):
 * `//abs/path` from the root, `~/path` from the home directory, `/path` from the project (the
 * event's `cwd`), `path` or `./path` from where the agent runs (`agent_cwd`, else the project); a
 * pattern with no `/` but a trailing one matches at any depth (`*.env`). `*` stays within a name,
 * `**` crosses names.
 *
 * Toward "the hook runs" wherever the event leaves a doubt: the home directory is not known to a
 * matcher, so `~/` is any of /home/NAME, /Users/NAME, /root, /var/root (and a literal `~/…`); a
 * search (Grep, Glob, LS) is selected when its directory may hold a matching file, not only when
 * it is one; a call that names no path is selected by Edit rules, and searched where it runs for
 * Read rules.
 */

const HOMES = ["/home/*", "/Users/*", "/root", "/var/root"];
/** Tools that read a whole directory: selected when what they search may contain a matching path. */
const SEARCHES: ReadonlySet<string> = new Set(["Grep", "Glob", "LS"]);

export interface PathRule {
  test(event: NativeEvent): boolean;
}

export type PathRuleBuild = { readonly ok: true; readonly rule: PathRule } | { readonly ok: false; readonly message: string };

type Anchor = "root" | "home" | "project" | "here" | "anywhere";

export function compilePathRule(specifier: string, edits: boolean): PathRuleBuild {
  const { anchor, glob } = anchored(specifier);
  const sources = anchor === "root" ? [glob] : anchor === "home" ? [...HOMES.map((home) => `${home}/${glob}`), `~/${glob}`] : [glob];
  const compiled: { glob: Glob; source: string }[] = [];
  for (const source of sources) {
    const check = compileGlob(source);
    if (!check.ok) return { ok: false, message: `invalid path pattern ${JSON.stringify(specifier)}: ${check.reason}` };
    compiled.push({ glob: check.glob, source });
  }
  const test = (event: NativeEvent): boolean => {
    const project = typeof event.cwd === "string" ? event.cwd : undefined;
    const here = typeof event.agent_cwd === "string" ? event.agent_cwd : project;
    const base = anchor === "project" ? project : here;
    const bases = anchor === "anywhere" ? [project, here] : [base];
    const search = typeof event.tool_name === "string" && SEARCHES.has(event.tool_name);
    const raws = eventPaths(event);
    // A call without a path: an edit of who knows what is selected; a read searches where it runs.
    if (raws.length === 0) {
      if (edits || here === undefined) return true;
      raws.push(here);
    }
    for (const raw of raws) {
      if (raw === "~" || raw.startsWith("~/")) {
        const literal = compiled.find((c) => c.source.startsWith("~/"));
        if (anchor !== "home" || (literal && (literal.glob.test(normalizeHome(raw)) || (search && mayContain(literal.source, normalizeHome(raw))))))
          return true;
        continue;
      }
      for (const from of bases) {
        const full = from ? resolvePath(from, raw) : normalizePath(raw);
        for (const { glob, source } of compiled) {
          const absolute = anchor === "root" || anchor === "home" ? source : from ? `${from.replace(/\/+$/, "")}/${source}` : undefined;
          if (absolute === undefined) continue;
          if (anchor === "root" || anchor === "home" ? glob.test(full) : relativeTest(glob, from as string, full)) return true;
          if (search && mayContain(absolute, full)) return true;
        }
      }
      // A name at any depth: outside the project too (`*.pem` selects /etc/ssl/x.pem).
      if (anchor === "anywhere" && compiled.some(({ glob }) => glob.test(normalizePath(raw).replace(/^\/+/, "")))) return true;
    }
    return false;
  };
  return { ok: true, rule: { test } };
}

function normalizeHome(raw: string): string {
  return `~${normalizePath(raw.slice(1) || "/")}`;
}

function relativeTest(glob: Glob, from: string, full: string): boolean {
  const root = normalizePath(from);
  if (full !== root && !full.startsWith(root === "/" ? "/" : `${root}/`)) return false;
  return glob.test(full === root ? "." : full.slice(root === "/" ? 1 : root.length + 1));
}

/** The rule's glob and where it is anchored, from how it begins (gitignore's rules, as Claude Code reads them). */
function anchored(specifier: string): { anchor: Anchor; glob: string } {
  if (specifier.startsWith("//")) return { anchor: "root", glob: `/${specifier.replace(/^\/+/, "")}` };
  if (specifier === "~" || specifier.startsWith("~/")) return { anchor: "home", glob: specifier.slice(2) || "**" };
  if (specifier.startsWith("/")) return { anchor: "project", glob: specifier.slice(1) };
  if (specifier.startsWith("./")) return { anchor: "here", glob: specifier.slice(2) };
  // gitignore: a pattern with no slash but a trailing one matches a name at any depth.
  if (!specifier.replace(/\/+$/, "").includes("/")) return { anchor: "anywhere", glob: `**/${specifier}` };
  return { anchor: "here", glob: specifier };
}

/**
 * Whether a directory may hold a path the glob matches: name by name, each of the directory's
 * names must match the glob's until the glob has a `**` or runs out of the directory. Braces are
 * not split here: a glob with any is taken to possibly match.
 */
function mayContain(globSource: string, dir: string): boolean {
  if (globSource.includes("{")) return true;
  const globNames = normalizePath(globSource).split("/");
  const normal = normalizePath(dir);
  const dirNames = normal === "/" ? [""] : normal.split("/");
  for (let i = 0; i < dirNames.length; i++) {
    const name = globNames[i];
    if (name === undefined) return false;
    if (name === "**") return true;
    if (name === (dirNames[i] as string)) continue;
    const one = compileGlob(name);
    if (!one.ok || !one.glob.test(dirNames[i] as string)) return false;
  }
  return globNames.length > dirNames.length;
}
