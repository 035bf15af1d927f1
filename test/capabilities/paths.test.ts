import { describe, expect, it } from "vitest";
import { compose, globMatcher, literalPrefix, parsePathPattern } from "../../src/capabilities/paths/patterns.ts";
import { isWithin, normalize, relativeTo, resolvePath } from "../../src/capabilities/paths/posix.ts";
import { specialFileSystem } from "../../src/capabilities/paths/special.ts";

describe("posix paths", () => {
  it.each([
    ["/a/b/../c", "/a/c"],
    ["/a//b/./c/", "/a/b/c"],
    ["/../../etc/passwd", "/etc/passwd"],
    ["/", "/"],
    ["/a/b/../../..", "/"],
  ])("normalize(%s) = %s", (input, expected) => expect(normalize(input)).toBe(expected));

  it.each([
    ["/ws", "../../etc/passwd", "/etc/passwd"],
    ["/ws/p", "src/../a.ts", "/ws/p/a.ts"],
    ["/ws", "/abs/x", "/abs/x"],
    [undefined, "rel", undefined],
    [undefined, "/abs", "/abs"],
  ])("resolvePath(%s, %s) = %s", (base, path, expected) => expect(resolvePath(base, path)).toBe(expected));

  it.each([
    ["/root", "/root", true],
    ["/root", "/root/x", true],
    ["/root", "/rootX", false],
    ["/root", "/rootX/y", false],
    ["/root", "/", false],
    ["/", "/anything", true],
  ])("isWithin(%s, %s) = %s", (root, path, expected) => expect(isWithin(root, path)).toBe(expected));

  it("relativeTo", () => {
    expect(relativeTo("/ws", "/ws")).toBe("");
    expect(relativeTo("/ws", "/ws/a/b")).toBe("a/b");
    expect(relativeTo("/ws", "/wsx/a")).toBeUndefined();
  });

  it.each([
    ["/proc/self/environ", "/proc"],
    ["/proc", "/proc"],
    ["/dev/zero", "/dev"],
    ["/sys/kernel", "/sys"],
    ["/processes/x", undefined],
    ["/devx", undefined],
  ])("specialFileSystem(%s) = %s", (path, expected) => expect(specialFileSystem(path)).toBe(expected));
});

function matches(raw: string, vars: { workspace: string | undefined; home: string }, path: string): boolean {
  const parsed = parsePathPattern(raw);
  if (!parsed.ok) throw new Error(parsed.error);
  const prefix = literalPrefix(parsed.pattern, vars);
  return prefix !== undefined && globMatcher(compose(prefix, parsed.pattern))(path);
}

describe("path grant patterns (truth table with near misses)", () => {
  const vars = { workspace: "/w/proj", home: "/home/u" };
  it.each([
    ["${workspace}/**", "/w/proj", true],
    ["${workspace}/**", "/w/proj/a/b.ts", true],
    ["${workspace}/**", "/w/proj/.env", true],
    ["${workspace}/**", "/w/projX/a", false],
    ["${workspace}/**", "/w/proj-evil/a", false],
    ["${workspace}/**", "/w", false],
    ["${workspace}/src/*.ts", "/w/proj/src/a.ts", true],
    ["${workspace}/src/*.ts", "/w/proj/src/deep/a.ts", false],
    ["${home}/.config/hookbox/**", "/home/u/.config/hookbox/x.yaml", true],
    ["${home}/.config/hookbox/**", "/home/u/.config/hookboxX/x", false],
    ["/etc/hosts", "/etc/hosts", true],
    ["/etc/hosts", "/etc/hostsX", false],
    ["/etc/hosts", "/etc/hosts/x", false],
    ["/root/**", "/rootX/y", false],
  ])("%s vs %s → %s", (raw, path, expected) => expect(matches(raw, vars, path)).toBe(expected));

  it("escapes glob syntax in the workspace path: a workspace named a[1] is literal", () => {
    const odd = { workspace: "/w/a[1]{x,y}*", home: "/h" };
    expect(matches("${workspace}/**", odd, "/w/a[1]{x,y}*/f")).toBe(true);
    expect(matches("${workspace}/**", odd, "/w/a1x/f")).toBe(false);
    expect(matches("${workspace}/**", odd, "/w/ax*/f")).toBe(false);
  });

  it("characters that are not glob syntax here stay in the literal prefix", () => {
    const parsed = parsePathPattern("${workspace}/app/(auth)/!x/**");
    expect(parsed.ok && parsed.pattern.literal).toEqual(["app", "(auth)", "!x"]);
    expect(matches("${workspace}/app/(auth)/**", vars, "/w/proj/app/(auth)/page.tsx")).toBe(true);
    expect(matches("${workspace}/app/(auth)/**", vars, "/w/proj/app/auth/page.tsx")).toBe(false);
  });

  // F9: with picomatch this grant held the event loop for minutes against a 48-character name.
  it("a hostile grant glob against a long guest path answers at once", () => {
    const raw = "${workspace}/**/*a*a*a*a*a*a*a*a*a*a*a*a*b";
    expect(matches(raw, vars, `/w/proj/${"a".repeat(100_000)}`)).toBe(false);
    expect(matches(raw, vars, `/w/proj/x/${"a".repeat(100_000)}b`)).toBe(true);
  });

  it("without a workspace, ${workspace} grants match nothing", () => {
    expect(matches("${workspace}/**", { workspace: undefined, home: "/h" }, "/anything")).toBe(false);
  });

  it.each([
    ["${HOME}/x", /unknown variable/],
    ["/a/${workspace}/x", /only start a pattern/],
    ["${workspace}/../**", /".." is not allowed/],
    ["${workspace}x/**", /expected "\/" after/],
    ["${workspace}/@(a|b)/**", /not a valid glob: extglobs/],
    ["${workspace}/src**", /not a valid glob: .*whole name/],
    [`\${workspace}/${"*a".repeat(17)}`, /not a valid glob: more than 16 wildcards/],
  ])("rejects %s", (raw, error) => {
    const parsed = parsePathPattern(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });
});
