import { describe, expect, it } from "vitest";
import { compileGlob, MAX_GLOB_EXPANSIONS, MAX_WILDCARDS_PER_NAME, type GlobOptions } from "../../src/core/text/glob.ts";

function test(glob: string, path: string, options?: GlobOptions): boolean {
  const compiled = compileGlob(glob, options);
  if (!compiled.ok) throw new Error(`${glob}: ${compiled.reason}`);
  return compiled.glob.test(path);
}

// picomatch's answers with { dot: true } (the matcher Hookbox used before), near misses included.
const TABLE: [glob: string, path: string, expected: boolean][] = [
  // * stays within a name, matches dotfiles, may be empty inside a name
  ["*.ts", "a.ts", true],
  ["*.ts", ".ts", true],
  ["*.ts", "src/a.ts", false],
  ["*", ".env", true],
  ["*", "a/b", false],
  ["a*", "a", true],
  ["a/*", "a/b", true],
  ["a/*", "a/b/c", false],
  ["a/*", "a", false],
  ["*a*a*b", "xaxaxb", true],
  ["*a*a*b", "aab", true],
  ["*a*a*b", "ab", false],
  ["*.{js,ts}", "x.ts", true],
  // ? is one character, never "/"
  ["a?c", "abc", true],
  ["a?c", "ac", false],
  ["a?c", "a/c", false],
  ["?", "\u{1F600}", true],
  // classes
  ["[abc].ts", "b.ts", true],
  ["[a-c].ts", "d.ts", false],
  ["[!a-c].ts", "d.ts", true],
  ["[^a-c].ts", "a.ts", false],
  ["[]]", "]", true],
  ["[a-]", "-", true],
  ["[\\]]", "]", true],
  ["[a-c-e]", "d", false],
  ["a[!b]c", "a/c", false],
  // ** as a whole name: any depth, zero included
  ["**", "a", true],
  ["**", "a/b/.c", true],
  ["**/*.env", "prod.env", true],
  ["**/*.env", "config/deep/prod.env", true],
  ["**/.env", ".env", true],
  ["**/.env", "a/.envrc", false],
  ["src/**", "src", true],
  ["src/**", "src/a/b.ts", true],
  ["src/**", "srcx/a.ts", false],
  ["src/**", "lib/src/a.ts", false],
  ["a/**/b", "a/b", true],
  ["a/**/b", "a/x/y/b", true],
  ["a/**/b", "a/x/y/bc", false],
  ["a/**/*", "a", false],
  ["a/**/*", "a/.b", true],
  ["a/**/**/b", "a/b", true],
  ["/etc/**", "/etc", true],
  ["/etc/**", "/etc/ssl/x.pem", true],
  ["/etc/**", "/etcetera/x", false],
  ["/**", "/", true],
  ["/**", "/a", true],
  ["/w/proj/**", "/w/proj-evil/a", false],
  // braces
  ["{a,b}", "a", true],
  ["{a,b}", "c", false],
  ["{a,b/c}/d", "b/c/d", true],
  ["{a,{b,c}}", "c", true],
  ["{a,b}{c,d}", "bd", true],
  ["{,a}b", "b", true],
  ["x{1..3}", "x2", true],
  ["x{1..3}", "x4", false],
  ["{a..c}", "b", true],
  ["{a}", "{a}", true],
  ["{a}", "a", false],
  ["{a\\,b,c}", "a,b", true],
  // escapes and characters that are literal here
  ["a\\*b", "a*b", true],
  ["a\\*b", "axb", false],
  ["\\{a,b}", "{a,b}", true],
  ["a}", "a}", true],
  ["a(b)|c+d@e!f.$^", "a(b)|c+d@e!f.$^", true],
  ["a.b", "axb", false],
  // "." and ".." are matched by themselves only; the empty name of an absolute path likewise
  ["*", "..", false],
  ["a/**", "a/..", false],
  ["a/**/b", "a/../b", false],
  ["**/*.pem", "/etc/x.pem", false],
  ["./a", "a", true],
  // trailing slashes are ignored; the empty path matches nothing
  ["a/*", "a/b/", true],
  ["**", "", false],
];

describe("glob semantics (picomatch with dot: true)", () => {
  it.each(TABLE)("%s vs %s → %s", (glob, path, expected) => expect(test(glob, path)).toBe(expected));

  it("a leading ! negates only when asked (match.paths), and is a character otherwise (read grants)", () => {
    expect(test("!*.md", "a.ts", { negate: true })).toBe(true);
    expect(test("!*.md", "a.md", { negate: true })).toBe(false);
    expect(test("!!*.md", "a.md", { negate: true })).toBe(true);
    expect(test("!*.md", "!a.md")).toBe(true);
    expect(test("!*.md", "a.md")).toBe(false);
    expect(compileGlob("!/etc/**", { negate: true })).toMatchObject({ ok: true, glob: { absolute: true } });
  });
});

describe("globs refused at load, with the reason", () => {
  it.each([
    ["@(a|b)", /extglobs/],
    ["!(a)", /extglobs/],
    ["a/*(b)", /extglobs/],
    ["[[:alpha:]]", /POSIX classes/],
    ["a**", /whole name/],
    ["**.ts", /whole name/],
    ["a/***/b", /"\*\*\*"/],
    ["a[/]b", /cannot contain "\/"/],
    ["a[b", /unclosed "\["/],
    ["{a,b", /unclosed "{"/],
    ["[z-a]", /empty range/],
    ["a\\", /lone/],
    [`${"*a".repeat(MAX_WILDCARDS_PER_NAME)}*`, /wildcards/],
    ["{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}", /expand to more than 64 globs/],
    [`{1..${MAX_GLOB_EXPANSIONS + 1}}`, /expand to more than/],
    [`${"a".repeat(900)}{b,c,d,e,f}`, /expand to more than 4096 characters/],
    ["**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/a/**", /more than 8 "\*\*"/],
    [`*${"a".repeat(256)}`, /more than 255 characters/],
    ["a".repeat(1025), /longer than 1024/],
  ])("%s", (glob, reason) => {
    const compiled = compileGlob(glob);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.reason).toMatch(reason);
  });

  it("escaped, the same characters are literal", () => {
    expect(test("\\@\\(a\\|b\\)", "@(a|b)")).toBe(true);
    expect(test("a\\[b", "a[b")).toBe(true);
    expect(test("a\\{", "a{")).toBe(true);
  });

  it("a host-composed glob may exceed the length limits (its prefix is literal)", () => {
    const prefix = `/${"d".repeat(250)}/`.repeat(8);
    expect(compileGlob(`${prefix}**`).ok).toBe(false);
    expect(test(`${prefix}**`, `${prefix}x`, { limitLength: false })).toBe(true);
  });
});

// F9: with a backtracking matcher these take minutes to hours; here, milliseconds. A regression
// hangs the test visibly rather than failing a timing assertion on a loaded machine.
describe("hostile globs answer at once (no backtracking)", () => {
  const SLOW = "**/*a*a*a*a*a*a*a*a*a*a*a*a*b";

  it("the F9 glob against long names", () => {
    expect(test(SLOW, `proj/${"a".repeat(48)}`)).toBe(false);
    expect(test(SLOW, `proj/${"a".repeat(100_000)}`)).toBe(false);
    expect(test(SLOW, `proj/${"a".repeat(100_000)}b`)).toBe(true);
    expect(test(`/w/${SLOW}`, `/w/x/${"a".repeat(100_000)}`)).toBe(false);
  });

  it("a long literal run after a star, against a long name of near misses", () => {
    const glob = `**/*${"a".repeat(250)}b`;
    expect(test(glob, "a".repeat(200_000))).toBe(false);
    expect(test(glob, `${"a".repeat(200_000)}b`)).toBe(true);
    expect(test(`**/?${"a".repeat(200)}[ab]*[!a]*?*b`, `${"a".repeat(254)}/`.repeat(400))).toBe(false);
  });

  it("many ** against a deep path of near misses", () => {
    const deep = `${"a/".repeat(50_000)}c`;
    expect(test("**/a/**/a/**/a/**/a/**/a/**/a/**/b", deep)).toBe(false);
    expect(test("**/*/**/*/**/*/**/*/**/*/**/*/**/*/**/*/b", deep)).toBe(false);
    expect(test("**/a/**/a/**/a/**/a/**/a/**/a/**/c", deep)).toBe(true);
  });
});
