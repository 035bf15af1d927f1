import { describe, expect, it } from "vitest";
import { shGlobPatterns, shLiteralPattern, shMayMatchGlob, shOverlap, shPatternText, shWrites } from "../../handlers/lib/shell/index.ts";
import { shGlobTokens } from "../../handlers/lib/shell/pattern.ts";

const W = "/home/dev/project";
/** What shWrites says a command writes: each target's patterns, workspace prefix removed, and its unknown expansions. */
function writes(command: string): string[] {
  return shWrites(command, W).map((t) => `${t.patterns.map((p) => shPatternText(p).replace(`${W}/`, "")).join(" | ")}${t.unknown.length ? ` ?${t.unknown.join(",")}` : ""}${t.named ? ` (${t.named})` : ""}`);
}

describe("shWrites: the files a command line may write, as patterns", () => {
  it.each([
    ["echo x > .en?", [".en? | .en?"]],
    ["cp a.txt .e*", [".e* | .e*", ".e*/a.txt | .e*/a.txt"]],
    ["F=.env; echo > $F", [".env"]],
    ["F=.env && echo > \"$F\"", [".env"]],
    ["false && F=x; echo > $F", ["x | ** ?$F"]],
    ["if true; then F=.env; fi; echo > $F", [".env | ** ?$F"]],
    ["F=a; (F=.env); echo > $F", ["a | .env"]],
    ["for f in src/*.ts; do sed -i s/a/b/ \"$f\"; done", ["src/*.ts | src/*.ts"]],
    ["echo > $(echo .env)", [".env"]],
    ["echo > \"$(cat name)\"", ["** ?$(cat name)"]],
    ["F=; echo > ${F:-.env}", ["/home/dev/project | .env"]],
    ["tmp=$(mktemp); echo x > \"$tmp\"", ["/tmp/tmp.[abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…][abcdefghijkl…]"]],
    ["echo > \"$HOME/x\" \"$TMPDIR/y\"", ["~/x"]],
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
    const cases: [string, string][] = [["/w/src/*.ts", "**/*.pem"], ["/w/.e*", "**/.env"], ["/w/out.txt", "/etc{,/**}"], ["~/.ssh/x", "**/.ssh/**"]];
    for (const [a, b] of cases) expect(shMayMatchGlob(shell(a), b), `${a} ${b}`).toBe(glob(b).some((p) => shOverlap(shell(a), p)));
  });

  it("a literal path is a pattern of itself", () => {
    expect(shOverlap(shLiteralPattern("/w/.env"), shLiteralPattern("/w/.ENV"))).toBe(true);
    expect(shOverlap(shLiteralPattern("/w/.env"), shLiteralPattern("/w/.env2"))).toBe(false);
  });
});

describe("shWrites with attributes: also the files a command changes the mode, owner, flags or name of", () => {
  const changed = (command: string, attributes: boolean): string[] => shWrites(command, W, { attributes }).map((t) => `${t.by}: ${t.patterns.map((p) => shPatternText(p).replace(`${W}/`, "")).join(" | ")}`);
  it.each([
    ["chmod 000 ~/.local/share/hookbox/audit", ["chmod: 000", "chmod: ~/.local/share/hookbox/audit"]],
    ["sudo chattr +i .git/config", ["chattr: +i", "chattr: .git/config"]],
    ["F=.hookbox; chown -R nobody \"$F\"", ["chown: nobody", "chown: .hookbox"]],
    ["find ~/.config -name hookbox.yaml -exec chmod 000 {} +", ["find -exec chmod: 000", "find -exec chmod: ~/.config/hookbox.yaml | ~/.config/**/hookbox.yaml"]],
    ["rmdir .hookbox/hooks/x", ["rmdir: .hookbox/hooks/x"]],
  ])("%s", (command, expected) => {
    expect(changed(command, true)).toEqual(expected);
    // Without the option (guard-secrets, bash-guard) none of these is a write.
    expect(changed(command, false)).toEqual([]);
  });
});
