import { describe, expect, it } from "vitest";
import { systemTierPaths, untrustedSystemPath } from "../../src/hooks/config/system-tier.ts";

type Node = { kind: "file" | "dir" | "symlink"; uid: number; mode: number };

/** owner, mode and realpath over a table of paths (a missing one: ENOENT). */
function fs(nodes: Record<string, Node>) {
  return {
    owner: async (path: string) => {
      const node = nodes[path];
      if (!node) throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
      return { kind: node.kind, uid: node.uid };
    },
    mode: async (path: string) => nodes[path]?.mode,
    realpath: async (path: string) => path,
  };
}

const DIRS: Record<string, Node> = {
  "/": { kind: "dir", uid: 0, mode: 0o755 },
  "/etc": { kind: "dir", uid: 0, mode: 0o755 },
  "/etc/hookbox": { kind: "dir", uid: 0, mode: 0o755 },
  "/tmp": { kind: "dir", uid: 0, mode: 0o1777 },
  "/tmp/root": { kind: "dir", uid: 0, mode: 0o755 },
  "/tmp/root/etc": { kind: "dir", uid: 0, mode: 0o755 },
  "/tmp/root/etc/hookbox": { kind: "dir", uid: 0, mode: 0o755 },
};
const POLICY: Node = { kind: "file", uid: 0, mode: 0o644 };

describe("untrustedSystemPath: system state only root can change", () => {
  const cases: [string, Record<string, Node>, string, RegExp | undefined][] = [
    ["root's file in root's directories", { ...DIRS, "/etc/hookbox/hookbox.yaml": POLICY }, "/etc/hookbox/hookbox.yaml", undefined],
    [
      "under a sticky world-writable directory (/tmp)",
      { ...DIRS, "/tmp/root/etc/hookbox/hookbox.yaml": POLICY },
      "/tmp/root/etc/hookbox/hookbox.yaml",
      undefined,
    ],
    ["the file is a user's", { ...DIRS, "/etc/hookbox/hookbox.yaml": { ...POLICY, uid: 1000 } }, "/etc/hookbox/hookbox.yaml", /belongs to uid 1000/],
    [
      "the file is group-writable",
      { ...DIRS, "/etc/hookbox/hookbox.yaml": { ...POLICY, mode: 0o664 } },
      "/etc/hookbox/hookbox.yaml",
      /writable by its group \(mode 0664\)/,
    ],
    [
      "the file is world-writable",
      { ...DIRS, "/etc/hookbox/hookbox.yaml": { ...POLICY, mode: 0o646 } },
      "/etc/hookbox/hookbox.yaml",
      /writable by every user/,
    ],
    [
      "a sticky bit does not excuse the file itself",
      { ...DIRS, "/etc/hookbox/hookbox.yaml": { ...POLICY, mode: 0o1666 } },
      "/etc/hookbox/hookbox.yaml",
      /writable by every user/,
    ],
    [
      "its directory is a user's",
      { ...DIRS, "/etc/hookbox": { kind: "dir", uid: 1000, mode: 0o755 }, "/etc/hookbox/hookbox.yaml": POLICY },
      "/etc/hookbox/hookbox.yaml",
      /\/etc\/hookbox belongs to uid 1000/,
    ],
    [
      "a directory above is world-writable without the sticky bit",
      { ...DIRS, "/etc": { kind: "dir", uid: 0, mode: 0o777 }, "/etc/hookbox/hookbox.yaml": POLICY },
      "/etc/hookbox/hookbox.yaml",
      /\/etc is writable by every user/,
    ],
    [
      "a symbolic link",
      { ...DIRS, "/etc/hookbox/hookbox.yaml": { kind: "symlink", uid: 0, mode: 0o777 } },
      "/etc/hookbox/hookbox.yaml",
      /is a symlink, not a file/,
    ],
    ["missing", DIRS, "/etc/hookbox/hookbox.yaml", /does not exist/],
  ];
  for (const [name, nodes, path, expected] of cases) {
    it(name, async () => {
      const problem = await untrustedSystemPath(fs(nodes), path);
      if (expected) expect(problem).toMatch(expected);
      else expect(problem).toBeUndefined();
    });
  }
});

describe("systemTierPaths", () => {
  it("are the real paths under /, and the same under another root", () => {
    expect(systemTierPaths()).toMatchObject({
      policyFile: "/etc/hookbox/hookbox.yaml",
      binary: "/usr/local/bin/hookbox",
      record: "/var/lib/hookbox/system-install.json",
    });
    expect(systemTierPaths("/tmp/r/")).toMatchObject({
      root: "/tmp/r",
      policyFile: "/tmp/r/etc/hookbox/hookbox.yaml",
      binary: "/tmp/r/usr/local/bin/hookbox",
    });
  });
});
