/**
 * The differential test's command generator: shell commands that may write files, built from
 * forms (redirections, globs, quoting, variables, substitutions, subshells, tee/cp/mv …,
 * interpreters, pipelines, git, find/xargs) × target files (protected ones and ordinary ones).
 * Deterministic: the same list every run, so the table in docs/shell-reader.md is reproducible.
 */

/** A file the command aims at, as written relative to the workspace (or ~ for the home directory). */
export interface Target {
  readonly path: string;
  /** A file of that name exists in the workspace before the command runs. */
  readonly exists: boolean;
}

export interface ShellCase {
  /** The form's name: the row of the table. */
  readonly form: string;
  readonly command: string;
  /** Programs the command needs besides the shell's builtins (the case is skipped when one is missing). */
  readonly needs: readonly string[];
  /**
   * The command writes files only it knows below a directory (an archive's members): the reader
   * names that directory, as a whole, and a guard judges it so — "named through its directory"
   * is the expected coverage.
   */
  readonly contents?: true;
}

/** The name of the symbolic link to a target the template holds in w/links/, and of its archives in w/arch/. */
export function slugOf(path: string): string {
  return path.replace(/^~\//, "home-").replace(/[/.]/g, "_");
}

export interface TargetSet extends Target {
  /** Protected by guard-secrets: every form is tried on it. Ordinary targets get the plain forms. */
  readonly protected: boolean;
}

export const TARGETS: readonly TargetSet[] = [
  { path: ".env", exists: true, protected: true },
  { path: ".env.local", exists: false, protected: true },
  { path: "id_rsa", exists: true, protected: true },
  { path: "config/.env.production", exists: true, protected: true },
  { path: "~/.ssh/authorized_keys", exists: true, protected: true },
  { path: "out.txt", exists: false, protected: false },
  { path: "notes.txt", exists: true, protected: false },
  { path: "src/new.ts", exists: false, protected: false },
];

const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;
const dirOf = (p: string): string => (p.includes("/") ? p.slice(0, p.lastIndexOf("/") + 1) : "");
const baseOf = (p: string): string => p.slice(p.lastIndexOf("/") + 1);
/** `~` only expands unquoted at the start of a word. */
const home = (p: string): boolean => p.startsWith("~/");
const hex = (s: string): string => [...s].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");

type Form = [name: string, needs: string[], make: (t: Target) => string | undefined, contents?: true];

/** Words that name the target: quoted, escaped, globbed … (undefined where a form cannot express it). */
const WORDS: [string, (t: Target) => string | undefined][] = [
  ["plain", (t) => t.path],
  ["single-quoted", (t) => (home(t.path) ? undefined : quote(t.path))],
  ["double-quoted", (t) => (home(t.path) ? undefined : `"${t.path}"`)],
  ["split quotes", (t) => (home(t.path) || t.path.length < 3 ? undefined : `"${t.path.slice(0, 2)}"'${t.path.slice(2)}'`)],
  ["backslash", (t) => (home(t.path) ? `~/\\${t.path.slice(2)}` : `\\${t.path}`)],
  ["$'…' hex", (t) => (home(t.path) ? undefined : `$'${hex(t.path)}'`)],
  ["glob ?", (t) => `${dirOf(t.path)}${baseOf(t.path).slice(0, -1)}?`],
  ["glob *", (t) => `${dirOf(t.path)}${baseOf(t.path).slice(0, 3)}*`],
  ["glob [..]", (t) => `${dirOf(t.path)}${baseOf(t.path).slice(0, -1)}[${baseOf(t.path).slice(-1)}]`],
  ["braces", (t) => `${dirOf(t.path)}{${baseOf(t.path)},zz.tmp}`],
];

/** Ways to write a file named by `w` (a word as the shell reads it). */
const WRITERS: [string, string[], (w: string) => string][] = [
  ["echo >", [], (w) => `echo x > ${w}`],
  ["echo >>", [], (w) => `echo x >> ${w}`],
  ["printf >|", [], (w) => `printf x >| ${w}`],
  ["&>", [], (w) => `echo x &> ${w}`],
  ["2>", [], (w) => `ls /nonexistent 2> ${w}`],
  ["<>", [], (w) => `: <> ${w}`],
  ["exec 3>", [], (w) => `exec 3> ${w}; echo x >&3`],
  ["{ } >", [], (w) => `{ echo a; echo b; } > ${w}`],
  ["( ) >", [], (w) => `(echo x) > ${w}`],
  ["tee", ["tee"], (w) => `echo x | tee ${w} > /dev/null`],
  ["tee -a", ["tee"], (w) => `echo x | tee -a ${w} > /dev/null`],
  ["touch", ["touch"], (w) => `touch ${w}`],
  ["cp", ["cp"], (w) => `cp a.txt ${w}`],
  ["mv", ["mv"], (w) => `mv a.txt ${w}`],
  ["install", ["install"], (w) => `install -m 600 a.txt ${w}`],
  ["ln -sf", ["ln"], (w) => `ln -sf a.txt ${w}`],
  ["dd of=", ["dd"], (w) => `dd if=a.txt of=${w} status=none`],
  ["truncate", ["truncate"], (w) => `truncate -s 0 ${w}`],
  ["rm -f", ["rm"], (w) => `rm -f ${w}`],
  ["sed -i", ["sed"], (w) => `sed -i s/x/y/ ${w}`],
  ["sed w", ["sed"], (w) => `sed -n "w ${w}" a.txt`],
  ["perl -pi", ["perl"], (w) => `perl -pi -e s/x/y/ ${w}`],
  ["cat | cat >", ["cat"], (w) => `cat a.txt | cat > ${w}`],
];

/** Forms where the target is named through the shell's own machinery, or inside another program. */
const INDIRECT: Form[] = [
  ["var F=…; > $F", [], (t) => `F=${t.path}; echo x > $F`],
  ['var && > "$F"', [], (t) => `F=${t.path} && echo x > "$F"`],
  ["export; > ${F}", [], (t) => `export F=${t.path}; echo x > \${F}`],
  ["var chain G=$F", [], (t) => `F=${t.path}; G=$F; echo x > "$G"`],
  ["${F:-default}", [], (t) => `F=; echo x > \${F:-${t.path}}`],
  ["declare", [], (t) => `declare F=${t.path}; echo x > $F`],
  ["read <<<", [], (t) => `read F <<< ${t.path}; echo x > "$F"`],
  ["for loop", [], (t) => `for f in zz.tmp ${t.path}; do echo x > "$f"; done`],
  ["$(echo)", [], (t) => `echo x > $(echo ${t.path})`],
  ["`echo`", [], (t) => `echo x > \`echo ${t.path}\``],
  ["$(printf %s)", [], (t) => `echo x > "$(printf %s ${t.path})"`],
  ["F=$(echo)", [], (t) => `F=$(echo ${t.path}); echo x > "$F"`],
  ["$(cat file)", ["cat"], (t) => `printf '%s' ${t.path} > name.tmp; echo x > "$(cat name.tmp)"`],
  ["env var from before", [], (t) => `export F=${t.path}\necho x > "$F"`],
  ["subshell", [], (t) => `(echo x > ${t.path})`],
  ["bash -c", ["bash"], (t) => `bash -c ${quote(`echo x > ${t.path}`)}`],
  ["sh -c $1", ["sh"], (t) => `sh -c 'echo x > "$1"' sh ${t.path}`],
  ["eval", [], (t) => `eval ${quote(`echo x > ${t.path}`)}`],
  ["F=… eval", [], (t) => `F=${t.path} eval 'echo x > $F'`],
  ["bash <<EOF", ["bash"], (t) => `bash <<'EOF'\necho x > ${t.path}\nEOF`],
  ["echo | bash", ["bash"], (t) => `echo ${quote(`echo x > ${t.path}`)} | bash`],
  ["cat <<EOF >", ["cat"], (t) => `cat > ${t.path} <<'EOF'\nK=1\nEOF`],
  ["cd then relative", [], (t) => (t.path.includes("/") ? `cd ${dirOf(t.path)} && echo x > ${baseOf(t.path)}` : `cd src && echo x > ../${t.path}`)],
  ["python3 -c", ["python3"], (t) => `python3 -c ${quote(`import os; open(os.path.expanduser('${t.path}'), 'w').write('x')`)}`],
  [
    "python3 - <<EOF",
    ["python3"],
    (t) => `python3 - <<'EOF'\nimport os\nwith open(os.path.expanduser('${t.path}'), 'a') as f:\n    f.write('x')\nEOF`,
  ],
  ["node -e", ["node"], (t) => `node -e ${quote(`require('fs').writeFileSync('${t.path}'.replace(/^~/, require('os').homedir()), 'x')`)}`],
  ["perl -e open", ["perl"], (t) => `perl -e ${quote(`open(my $f, ">", glob("${t.path}")) or die; print $f "x"`)}`],
  ["awk print >", ["awk"], (t) => (home(t.path) ? undefined : `awk 'BEGIN { print "x" > "${t.path}" }'`)],
  ["git checkout --", ["git"], (t) => (home(t.path) || !t.exists ? undefined : `git checkout other -- ${t.path}`)],
  ["git restore --source", ["git"], (t) => (home(t.path) || !t.exists ? undefined : `git restore --source=other ${t.path}`)],
  ["git stash push --", ["git"], (t) => (home(t.path) || !t.exists ? undefined : `git stash push -q -- ${t.path}`)],
  ["git rm", ["git"], (t) => (home(t.path) || !t.exists ? undefined : `git rm -q ${t.path}`)],
  ["find -exec touch", ["find", "touch"], (t) => `find ${home(t.path) ? "~" : "."} -name ${quote(baseOf(t.path))} -exec touch {} +`],
  ["find -delete", ["find"], (t) => `find ${home(t.path) ? "~" : "."} -name ${quote(baseOf(t.path))} -delete`],
  ["echo | xargs touch", ["xargs", "touch"], (t) => `echo ${t.path} | xargs touch`],
  ["ls | xargs rm", ["ls", "xargs", "rm"], (t) => (t.exists ? `ls ${t.path} | xargs rm -f` : undefined)],
  [
    "cp into dir",
    ["cp"],
    (t) => (dirOf(t.path) && baseOf(t.path) !== "a.txt" ? `cp ${baseOf(t.path) === ".env" ? ".env.example" : "a.txt"} ${dirOf(t.path)}` : undefined),
  ],
  // Issue 27: writes that do not name their files, and a link written through.
  ["> into a symbolic link", [], (t) => `echo x > links/${slugOf(t.path)}`],
  ["tee into a symbolic link", ["tee"], (t) => `echo x | tee -a links/${slugOf(t.path)} > /dev/null`],
  ["xargs template names it", ["xargs", "touch"], (t) => `echo | xargs touch ${t.path}`],
  ["xargs -I{} template", ["xargs", "cp"], (t) => `echo a.txt | xargs -I{} cp {} ${t.path}`],
  ["gzip (removes it)", ["gzip"], (t) => (t.exists ? `gzip -f ${t.path}` : undefined)],
  ["tar -xf (the cwd)", ["tar"], (t) => `tar -xf arch/${slugOf(t.path)}.tar${home(t.path) ? " -C ~" : ""}`, true],
  ["tar -C dir -x", ["tar"], (t) => `tar -C ${home(t.path) ? "~" : "."} -x -f arch/${slugOf(t.path)}.tar`, true],
  ["tar --directory= xzf", ["tar", "gzip"], (t) => `tar xzf arch/${slugOf(t.path)}.tgz --directory=${home(t.path) ? "$HOME" : "."}`, true],
  ["unzip", ["unzip"], (t) => `unzip -oq arch/${slugOf(t.path)}.zip${home(t.path) ? " -d ~" : ""}`, true],
];

/** Every case: each writer with each word form of each target, then each indirect form of each target. */
export function generateCases(): ShellCase[] {
  const cases: ShellCase[] = [];
  for (const target of TARGETS) {
    for (const [wordName, word] of WORDS) {
      const w = word(target);
      if (w === undefined || (!target.protected && wordName !== "plain")) continue;
      // Every writer with the plain word; the other word forms with two writers, to keep the run short.
      const writers = wordName === "plain" ? WRITERS : WRITERS.filter(([name]) => name === "echo >" || name === "cp");
      for (const [name, needs, make] of writers) cases.push({ form: `${name} · ${wordName}`, command: make(w), needs });
    }
    // The indirect forms on the protected targets and on one ordinary file (out.txt).
    if (!target.protected && target.path !== "out.txt") continue;
    for (const [name, needs, make, contents] of INDIRECT) {
      const command = make(target);
      if (command !== undefined) cases.push({ form: name, command, needs, ...(contents ? { contents } : {}) });
    }
  }
  return cases;
}
