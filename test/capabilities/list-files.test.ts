import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deniedWith, invoke, operator, prepare, rejection, removeDir, tempDir, testHost } from "./helpers.ts";

let ws: string;
let outside: string;

beforeAll(() => {
  ws = tempDir("hookbox-list-");
  outside = tempDir("hookbox-list-outside-");
  writeFileSync(`${outside}/leak.txt`, "x");
  mkdirSync(`${ws}/src/deep`, { recursive: true });
  mkdirSync(`${ws}/secret`);
  writeFileSync(`${ws}/README.md`, "");
  writeFileSync(`${ws}/.env`, "");
  writeFileSync(`${ws}/src/a.ts`, "a = 1");
  mkdirSync(`${ws}/.hidden`);
  writeFileSync(`${ws}/.hidden/inner.txt`, "");
  writeFileSync(`${ws}/src/b.js`, "");
  writeFileSync(`${ws}/src/deep/c.TS`, "");
  writeFileSync(`${ws}/secret/key.pem`, "");
  symlinkSync(outside, `${ws}/src/out-dir`);
  symlinkSync(`${outside}/leak.txt`, `${ws}/src/out-file`);
  symlinkSync("a.ts", `${ws}/src/in-file`);
  execFileSync("mkfifo", [`${ws}/src/fifo`]);
});
afterAll(() => {
  removeDir(ws);
  removeDir(outside);
});

describe("hook.listFiles", () => {
  const host = testHost();
  const grants = prepare(host, { read: ["${workspace}/**"] });
  const list = async (...args: unknown[]) => invoke(host, await grants, ws).api("listFiles", ...args) as Promise<string[]>;

  it("lists regular files only, never symlinks (in or out) nor FIFOs", async () => {
    expect(await list("src")).toEqual(["src/a.ts", "src/b.js"]);
  });

  it("recursive, relative to the workspace when dir is relative; names starting with a dot only with hidden: true", async () => {
    expect(await list(".", { recursive: true })).toEqual(["README.md", "secret/key.pem", "src/a.ts", "src/b.js", "src/deep/c.TS"]);
    expect(await list(".", { recursive: true, hidden: true })).toEqual([
      ".env",
      ".hidden/inner.txt",
      "README.md",
      "secret/key.pem",
      "src/a.ts",
      "src/b.js",
      "src/deep/c.TS",
    ]);
    // The directory asked for may itself be hidden: only names below it are filtered.
    expect(await list(".hidden")).toEqual([".hidden/inner.txt"]);
  });

  it("details: {path, size, mtime} (seconds since the epoch), as the seed engine's list_files", async () => {
    const listed = (await list("src", { details: true })) as unknown as { path: string; size: number; mtime: number }[];
    expect(listed.map((f) => f.path)).toEqual(["src/a.ts", "src/b.js"]);
    expect(listed[0]).toMatchObject({ size: 5 });
    expect(Math.abs((listed[0] as { mtime: number }).mtime - Date.now() / 1000)).toBeLessThan(3600);
  });

  it("absolute in, absolute out", async () => {
    expect(await list(`${ws}/src`, { recursive: true })).toEqual([`${ws}/src/a.ts`, `${ws}/src/b.js`, `${ws}/src/deep/c.TS`]);
  });

  it("extensions filter, case-insensitive, with or without the dot", async () => {
    expect(await list("src", { recursive: true, extensions: ["ts"] })).toEqual(["src/a.ts", "src/deep/c.TS"]);
    expect(await list("src", { recursive: true, extensions: [".js"] })).toEqual(["src/b.js"]);
  });

  it("maxFiles caps the answer", async () => {
    expect(await list(".", { recursive: true, maxFiles: 2 })).toHaveLength(2);
  });

  it.each([
    ["src/out-dir", /resolving to .* through a symbolic link\) is not granted/],
    ["../", /is not granted/],
    ["/etc", /is not granted/],
    ["/proc/self", /kernel file system/],
  ])("refused: %s", async (dir, message) => {
    await deniedWith(list(dir), message);
  });

  it("a file is not a directory", async () => {
    const e = await rejection(list("README.md"));
    expect(e.code).toBe("io_failed");
  });

  it("files the hook may not read are left out (deny), not revealed", async () => {
    const denyHost = testHost();
    const denyGrants = await prepare(
      denyHost,
      { read: ["${workspace}/**"] },
      { operator: operator({ deny: { read: ["${workspace}/secret/**", "**/.env"] } }) },
    );
    expect(await invoke(denyHost, denyGrants, ws).api("listFiles", ".", { recursive: true })).toEqual([
      "README.md",
      "src/a.ts",
      "src/b.js",
      "src/deep/c.TS",
    ]);
  });
});

describe("hook.listFiles outside a grant: the denial suggests the grant that works", () => {
  it("dir/** (which matches dir too), and with it the listing works", async () => {
    const host = testHost();
    const narrow = await prepare(host, { read: ["${workspace}/README.md"] });
    const message = await deniedWith(
      invoke(host, narrow, ws).api("listFiles", "src"),
      /to allow it add to its YAML: {2}permissions: \{ read: \["\$\{workspace\}\/src\/\*\*"\] \}/,
    );
    const suggested = JSON.parse(/read: (\[.*?\]) \}/.exec(message)?.[1] ?? "[]") as string[];
    const granted = await prepare(host, { read: suggested });
    expect(await invoke(host, granted, ws).api("listFiles", "src")).toEqual(["src/a.ts", "src/b.js"]);
  });

  it("an absolute directory outside the workspace: /dir/**; readFile still suggests the file itself", async () => {
    const host = testHost();
    const none = await prepare(host, {});
    await deniedWith(invoke(host, none, ws).api("listFiles", outside), new RegExp(`read: \\["${outside}/\\*\\*"\\]`));
    await deniedWith(invoke(host, none, ws).api("readFile", `${outside}/leak.txt`), new RegExp(`read: \\["${outside}/leak\\.txt"\\]`));
  });
});
