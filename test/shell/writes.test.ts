import { describe, expect, it } from "vitest";
import {
  shAnalyze,
  shGitWorktree,
  shGlobPatterns,
  shLiteralPattern,
  shMayMatchGlob,
  shOverlap,
  shPatternText,
  shWrites,
} from "../../handlers/lib/shell/index.ts";
import { shGlobTokens } from "../../handlers/lib/shell/pattern.ts";

const W = "/home/dev/project";
/** What shWrites says a command writes: each target's patterns, workspace prefix removed, and its unknown expansions. */
function writes(command: string): string[] {
  return shWrites(command, W).map(
    (t) =>
      `${t.patterns.map((p) => shPatternText(p).replace(`${W}/`, "")).join(" | ")}${t.unknown.length ? ` ?${t.unknown.join(",")}` : ""}${t.named ? ` (${t.named})` : ""}`,
  );
}

describe("shWrites: the files a command line may write, as patterns", () => {
  it.each([
    ["echo x > .en?", [".en? | .en?"]],
    ["cp a.txt .e*", [".e* | .e*", ".e*/a.txt | .e*/a.txt"]],
    ["F=.env; echo > $F", [".env"]],
    ['F=.env && echo > "$F"', [".env"]],
    ["false && F=x; echo > $F", ["x | ** ?$F"]],
    ["if true; then F=.env; fi; echo > $F", [".env | ** ?$F"]],
    ["F=a; (F=.env); echo > $F", ["a | .env"]],
    ['for f in src/*.ts; do sed -i s/a/b/ "$f"; done', ["src/*.ts | src/*.ts"]],
    ["echo > $(echo .env)", [".env"]],
    ['echo > "$(cat name)"', ["** ?$(cat name)"]],
    ["F=; echo > ${F:-.env}", ["/home/dev/project | .env"]],
    [
      'tmp=$(mktemp); echo x > "$tmp"',
      [
        "/tmp/tmp.[abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…]",
      ],
    ],
    ['echo > "$HOME/x" "$TMPDIR/y"', ["~/x"]],
    ["git checkout other -- .env", [".env"]],
    ["git checkout feature", ["feature"]],
    ["git stash pop", []],
    ["find . -name '*.pyc' -delete", ["*.pyc | **/*.pyc"]],
    ["grep -rl foo src | xargs sed -i s/foo/bar/", ["src"]],
    ["cat list | xargs rm", ["** ?the files xargs rm reads from its input"]],
    ["python3 -c \"open('.env','w')\"", [".env (writes)", "w (writes)"]],
    ["awk '{print > \".env\"}' in", [".env (writes)"]],
    ["bash <<'EOF'\necho x > .env\nEOF", [".env"]],
    ["F=.env eval 'echo > $F'", [".env"]],
    ["rm -rf build/*", ["build | build/*"]],
    ["ln -s .env public", ["public", "public/.env", ".env (mentions)"]],
  ])("%s", (command, expected) => {
    expect(writes(command)).toEqual(expected);
  });

  it("a hostile line costs bounded work: many alternatives collapse to anything, deep nesting stops", () => {
    const braces = `echo > ${"{a,b}".repeat(12)}`;
    expect(writes(braces).join()).toContain("**");
    const nested = `${"$(echo ".repeat(50)}x${")".repeat(50)}`;
    expect(() => shWrites(`echo > ${nested}`, W)).not.toThrow();
  });
});

describe("shOverlap: may a path match both patterns (truth table with near misses)", () => {
  const shell = (text: string) => shGlobTokens(text, true);
  const glob = (text: string) => shGlobPatterns(text);
  const may = (a: string, b: string): boolean => glob(b).some((p) => shOverlap(shell(a), p));
  it.each([
    [".en?", "**/.env", true],
    [".e*", "**/.env", true],
    ["*", "**/.env", false], // bash's * does not match a leading "."
    ["[.]env", "**/.env", false],
    ["*.log", "**/.env.*", false],
    ["*.pem", "**/*.pem", true],
    ["x.PEM", "**/*.pem", true], // case-insensitive, as the guard matches
    ["/home/dev/.ssh/id_*", "**/.ssh/**", true],
    ["/home/dev/.ssh", "**/.ssh/**", false], // the directory itself is not below it
    ["/home/dev/.sshx/a", "**/.ssh/**", false],
    ["/etc/host?", "/etc/**", true],
    ["/etcetera/x", "/etc/**", false],
    ["src/*.ts", "**/id_rsa", false],
    ["@(.env)", "**/.env", true], // an extglob group may match a leading "."
  ])("%s vs %s → %s", (a, b, expected) => {
    expect(may(a, b)).toBe(expected);
  });

  it("shMayMatchGlob answers as the full walk does, also when the literal ends rule a glob out", () => {
    const cases: [string, string][] = [
      ["/w/src/*.ts", "**/*.pem"],
      ["/w/.e*", "**/.env"],
      ["/w/out.txt", "/etc{,/**}"],
      ["~/.ssh/x", "**/.ssh/**"],
    ];
    for (const [a, b] of cases) expect(shMayMatchGlob(shell(a), b), `${a} ${b}`).toBe(glob(b).some((p) => shOverlap(shell(a), p)));
  });

  it("a literal path is a pattern of itself", () => {
    expect(shOverlap(shLiteralPattern("/w/.env"), shLiteralPattern("/w/.ENV"))).toBe(true);
    expect(shOverlap(shLiteralPattern("/w/.env"), shLiteralPattern("/w/.env2"))).toBe(false);
  });
});

describe("shWrites with attributes: also the files a command changes the mode, owner, flags or name of", () => {
  const changed = (command: string, attributes: boolean): string[] =>
    shWrites(command, W, { attributes }).map((t) => `${t.by}: ${t.patterns.map((p) => shPatternText(p).replace(`${W}/`, "")).join(" | ")}`);
  it.each([
    ["chmod 000 ~/.local/share/hookbox/audit", ["chmod: 000", "chmod: ~/.local/share/hookbox/audit"]],
    ["sudo chattr +i .git/config", ["chattr: +i", "chattr: .git/config"]],
    ['F=.hookbox; chown -R nobody "$F"', ["chown: nobody", "chown: .hookbox"]],
    [
      "find ~/.config -name hookbox.yaml -exec chmod 000 {} +",
      ["find -exec chmod: 000", "find -exec chmod: ~/.config/hookbox.yaml | ~/.config/**/hookbox.yaml"],
    ],
    ["rmdir .hookbox/hooks/x", ["rmdir: .hookbox/hooks/x"]],
  ])("%s", (command, expected) => {
    expect(changed(command, true)).toEqual(expected);
    // Without the option (guard-secrets, bash-guard) none of these is a write.
    expect(changed(command, false)).toEqual([]);
  });
});

describe("issue 27: writes that do not name their files, read as their commands say", () => {
  /** by: patterns [contents] for each target. */
  const read = (command: string): string[] =>
    shWrites(command, W).map(
      (t) => `${t.by}: ${t.patterns.map((p) => shPatternText(p).replace(`${W}/`, "").replace(W, ".")).join(" | ")}${t.contents ? " [contents]" : ""}`,
    );
  it.each([
    // xargs and parallel: the template is the command they run; what it names itself is written too.
    ["echo x | xargs rm -rf ~/.config/hookbox", ["xargs rm: ~/.config/hookbox", "xargs rm: x"]],
    ["ls /tmp/h | xargs -I{} cp -r /tmp/h/{} .hookbox/hooks/", ["xargs cp: .hookbox/hooks", "xargs cp: .hookbox/hooks/**"]],
    // mv's last operand may be a directory: the source's name below it too.
    [
      "find . -name '*.bak' | xargs -I% mv % %.old",
      [
        "xargs mv: *.bak.old | **/*.bak.old",
        "xargs mv: *.bak.old/*.bak | *.bak.old/**/*.bak | **/*.bak.old/*.bak | **/*.bak.old/**/*.bak",
        "xargs mv: *.bak | **/*.bak",
      ],
    ],
    ["parallel rm -f ::: a.txt .env", ["parallel rm: a.txt", "parallel rm: .env"]],
    ["cat list | parallel gzip", ["parallel gzip (it removes the file it replaces): **", "parallel gzip: **.gz"]],
    // Archives write below their destination, as a whole; named members by their own paths.
    ["tar -xzf a.tgz -C src", ["tar -x: src [contents]"]],
    ["tar xf a.tar", ["tar -x: . [contents]"]],
    ["tar --extract --file=a.tar --directory=/opt/x", ["tar -x: /opt/x [contents]"]],
    ["tar -xf a.tar -C out .env config", ["tar -x: out/.env [contents]", "tar -x: out/config [contents]"]],
    ["tar -xPf a.tar", ["tar -xP (members with absolute names): / [contents]"]],
    ["tar -tf a.tar; tar -xOf a.tar x", []],
    ["tar -czf ../out.tgz .", ["tar -c: /home/dev/out.tgz"]],
    ["bsdtar -xf a.tar -C ~", ["bsdtar -x: ~ [contents]"]],
    ["unzip -q x.zip -d vendor; unzip -l x.zip; unzip -p x.zip f", ["unzip: vendor [contents]"]],
    [
      "cpio -idm < a.cpio",
      ["cpio -i (members with absolute names are written where they name; --no-absolute-filenames keeps them below the directory): / [contents]"],
    ],
    ["cpio -i --no-absolute-filenames -D dst < a.cpio; find . | cpio -pdm /backup", ["cpio -i: dst [contents]", "cpio -p: /backup [contents]"]],
    ["7z x a.7z -oout -y", ["7z x: out [contents]"]],
    ["rsync -a src/ ~/dst/", ["rsync: ~/dst", "rsync: ~/dst/src", "rsync: ~/dst [contents]"]],
    ["gzip -k notes.txt; gunzip a.txt.gz", ["gzip: notes.txt.gz", "gunzip (it removes the file it replaces): a.txt.gz", "gunzip: a.txt"]],
  ])("%s", (command, expected) => {
    expect(read(command)).toEqual(expected);
  });

  it("find's name tests, with hidden directories entered (`hidden`), as find descends into them", () => {
    const [target] = shWrites("find . -name '*.json' -delete", W);
    expect(target?.patterns.map(shPatternText)).toEqual([`${W}/*.json`, `${W}/**/*.json`]);
    expect(target?.patterns.some((p) => shMayMatchGlob(p, "**/.claude/settings.json"))).toBe(false);
    expect(target?.hidden?.some((p) => shMayMatchGlob(p, "**/.claude/settings.json"))).toBe(true);
  });

  it("shGitWorktree: what git clean/stash/checkout/restore/reset/switch do to files they do not name", () => {
    const op = (command: string) => {
      const cmd = shAnalyze(command, W)
        .flatMap((p) => p.commands)
        .find((c) => c.name === "git");
      const found = cmd ? shGitWorktree(cmd) : undefined;
      return (
        found && {
          sub: found.sub,
          cwd: found.cwd,
          reverts: found.reverts,
          source: found.source,
          untracked: found.untracked,
          ignored: found.ignored,
          onlyIgnored: found.onlyIgnored,
          directories: found.directories,
          pathspecs: found.pathspecs.map((w) => w.text),
        }
      );
    };
    expect(op("git clean -fdx")).toEqual({
      sub: "clean",
      cwd: W,
      reverts: false,
      source: undefined,
      untracked: true,
      ignored: true,
      onlyIgnored: false,
      directories: true,
      pathspecs: [],
    });
    expect(op("cd src && git clean -fX -- build")).toMatchObject({
      cwd: `${W}/src`,
      untracked: false,
      ignored: true,
      onlyIgnored: true,
      pathspecs: ["build"],
    });
    expect(op("git -C sub stash -u")).toMatchObject({
      sub: "stash",
      cwd: `${W}/sub`,
      reverts: true,
      source: "HEAD",
      untracked: true,
      ignored: false,
    });
    expect(op("git stash push -a -m wip -- .hookbox")).toMatchObject({ untracked: true, ignored: true, pathspecs: [".hookbox"] });
    expect(op("git checkout -- .")).toMatchObject({ sub: "checkout", source: undefined, pathspecs: ["."] });
    expect(op("git checkout HEAD~2 -- .claude")).toMatchObject({ source: "HEAD~2", pathspecs: [".claude"] });
    expect(op("git checkout .")).toMatchObject({ pathspecs: ["."] });
    expect(op("git checkout -f")).toMatchObject({ source: "HEAD", pathspecs: [] });
    expect(op("git restore --source=main .")).toMatchObject({ source: "main", pathspecs: ["."] });
    expect(op("git reset --hard origin/main")).toMatchObject({ sub: "reset", source: "origin/main" });
    expect(op("git switch --discard-changes main")).toMatchObject({ sub: "switch", source: "HEAD" });
    expect(op("git --work-tree=/x clean -fd")).toMatchObject({ cwd: undefined });
    // Near misses: they only look, or keep local changes.
    for (const command of [
      "git clean -n -d",
      "git clean --dry-run",
      "git stash list",
      "git stash pop",
      "git restore --staged x",
      "git checkout main",
      "git checkout -b feature",
      "git reset --soft HEAD~1",
      "git reset x",
      "git switch main",
      "git status",
    ])
      expect(op(command), command).toBeUndefined();
  });
});
