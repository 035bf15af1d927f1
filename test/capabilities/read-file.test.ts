import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CapabilityIO } from "../../src/platform/capability-io.ts";
import { nodeCapabilityIO } from "../../src/platform/node-capability-io.ts";
import { deniedWith, invoke, operator, prepare, rejection, removeDir, tempDir, testHost } from "./helpers.ts";

let ws: string;
let outside: string;
let server: Server;

beforeAll(async () => {
  ws = tempDir("hookbox-ws-");
  outside = tempDir("hookbox-outside-");
  writeFileSync(`${ws}/a.txt`, "hello");
  writeFileSync(`${ws}/.env`, "SECRET=1");
  mkdirSync(`${ws}/src`);
  writeFileSync(`${ws}/src/x.ts`, "export {}");
  mkdirSync(`${ws}/secret`);
  writeFileSync(`${ws}/secret/s.txt`, "s");
  writeFileSync(`${outside}/secret.txt`, "outside secret");
  mkdirSync(`${ws}-evil`, { recursive: true });
  writeFileSync(`${ws}-evil/x`, "evil");
  symlinkSync("/etc", `${ws}/link-etc`);
  symlinkSync("/etc/hosts", `${ws}/link-hosts`);
  symlinkSync("a.txt", `${ws}/link-inside`);
  symlinkSync(`${outside}/secret.txt`, `${ws}/link-out`);
  symlinkSync("/proc/self/environ", `${ws}/link-proc`);
  symlinkSync("secret/s.txt", `${ws}/link-secret`);
  execFileSync("mkfifo", [`${ws}/fifo`]);
  writeFileSync(`${ws}/sparse`, "");
  truncateSync(`${ws}/sparse`, 2 * 1024 ** 3);
  writeFileSync(`${ws}/utf8.txt`, "aé€😀");
  server = createServer();
  await new Promise<void>((resolve) => server.listen(`${ws}/sock`, resolve));
});

afterAll(() => {
  server.close();
  removeDir(ws);
  removeDir(`${ws}-evil`);
  removeDir(outside);
});

describe("hook.readFile truth table (grant: read ${workspace}/**)", () => {
  const host = testHost();
  const grants = prepare(host, { read: ["${workspace}/**"] });
  const api = async (...args: unknown[]) => invoke(host, await grants, ws).api("readFile", ...args);

  it.each([
    ["a.txt", "hello"],
    ["src/../a.txt", "hello"],
    ["./src/x.ts", "export {}"],
    ["link-inside", "hello"],
    [".env", "SECRET=1"],
  ])("permitted: %s", async (path, content) => {
    expect(await api(path)).toBe(content);
  });

  it("permitted: the absolute path of a workspace file", async () => {
    expect(await api(`${ws}/a.txt`)).toBe("hello");
  });

  it.each([
    [
      "../../etc/passwd",
      /hook test-hook: hook\.readFile\("\.\.\/\.\.\/etc\/passwd"\) is not granted; to allow it add to its YAML: {2}permissions: \{ read: \["\/etc\/passwd"\] \}/,
    ],
    ["/etc/passwd", /is not granted; to allow it add to its YAML: {2}permissions: \{ read: \["\/etc\/passwd"\] \}.*default read ceiling/],
    ["link-etc/hosts", /resolving to "\/etc\/hosts" through a symbolic link\) is not granted/],
    ["link-hosts", /resolving to "\/etc\/hosts" through a symbolic link/],
    ["link-out", /resolving to ".*secret\.txt" through a symbolic link\) is not granted/],
    ["/proc/self/environ", /\/proc\/self\/environ is in \/proc, a kernel file system no hook may read/],
    ["link-proc", /link-proc resolves to \/proc\/\d+\/environ, which is in \/proc/],
    ["/dev/zero", /is in \/dev, a kernel file system/],
    ["fifo", /it is a FIFO \(named pipe\); hooks read regular files only/],
    ["sock", /it is a socket; hooks read regular files only/],
    ["src", /it is a directory/],
  ])("refused: %s", async (path, message) => {
    await deniedWith(api(path), message);
  });

  it("refused: a sibling directory sharing the workspace's prefix (/ws vs /ws-evil)", async () => {
    await deniedWith(api(`${ws}-evil/x`), /is not granted/);
  });

  it("a 2 GB sparse file costs one capped read", async () => {
    const started = performance.now();
    const text = (await api("sparse")) as string;
    expect(text.length).toBe(1024 * 1024);
    expect(await api("sparse", { maxBytes: 10 })).toBe("\0".repeat(10));
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("cuts on a character boundary", async () => {
    expect(await api("utf8.txt", { maxBytes: 4 })).toBe("aé"); // € needs bytes 4–6
    expect(await api("utf8.txt", { maxBytes: 6 })).toBe("aé€");
    expect(await api("utf8.txt")).toBe("aé€😀");
  });

  it.each([
    [[""], /path must not be empty/],
    [["a\0b"], /NUL/],
    [[42], /path must be a string, got a number/],
    [[["a.txt"]], /got an array/],
    [["a.txt", { maxBytes: -1 }], /maxBytes must be between 0 and 16777216/],
    [["a.txt", { maxBytes: "10" }], /maxBytes must be a whole number/],
    [["a.txt", { maxbytes: 10 }], /unknown option "maxbytes"/],
    [["a.txt", {}, "extra"], /at most 2 arguments/],
    [["x".repeat(5000)], /longer than 4096/],
  ])("invalid arguments %j are a TypeError, not a crash", async (args, message) => {
    const e = await rejection(api(...(args as unknown[])));
    expect(e).toMatchObject({ name: "TypeError", code: "invalid_argument" });
    expect(e.message).toMatch(message);
  });

  it("a missing granted file is not_found, not a denial", async () => {
    const e = await rejection(api("missing.txt"));
    expect(e).toMatchObject({ name: "HookboxError", code: "not_found" });
    expect(e.message).toBe("hook.readFile failed: no such file or directory (ENOENT)");
  });
});

describe("hook.readFile and the operator file", () => {
  it("deny wins, also through a symlink (Deno PR #33894)", async () => {
    const host = testHost();
    const grants = await prepare(
      host,
      { read: ["${workspace}/**"] },
      { operator: operator({ deny: { read: ["${workspace}/secret/**", "**/.env"] } }) },
    );
    const { api } = invoke(host, grants, ws);
    await deniedWith(
      api("readFile", "secret/s.txt"),
      /refused by the operator: hookbox\.yaml deny\.read lists "\$\{workspace\}\/secret\/\*\*" \(deny always wins\)/,
    );
    await deniedWith(api("readFile", "link-secret"), /resolving to .*secret\/s\.txt.*deny\.read lists/);
    await deniedWith(api("readFile", ".env"), /deny\.read lists "\*\*\/\.env"/);
    expect(await api("readFile", "a.txt")).toBe("hello");
  });

  it("a declared path outside the default ceiling needs the operator", async () => {
    const host = testHost();
    const grants = await prepare(host, { read: ["/etc/hosts"] });
    await deniedWith(
      invoke(host, grants, ws).api("readFile", "/etc/hosts"),
      /outside the default read ceiling: by default hooks read only \$\{workspace\}\/\*\* and \$\{home\}\/\.config\/hookbox\/\*\*; the operator can approve it for this hook in hookbox\.yaml: {2}hooks: \{ test-hook: \{ permissions: \{ read: \["\/etc\/hosts"\] \} \} \}/,
    );
    const approved = await prepare(
      host,
      { read: ["/etc/hosts"] },
      { operator: operator({ hooks: { "test-hook": { permissions: { read: ["/etc/hosts"] } } } }) },
    );
    expect(await invoke(host, approved, ws).api("readFile", "/etc/hosts")).toContain("localhost");
  });

  it("an explicit ceiling narrows; approval cannot widen past it", async () => {
    const host = testHost();
    const op = operator({ ceilings: { read: ["${workspace}/src/**"] }, hooks: { "test-hook": { permissions: { read: ["${workspace}/**"] } } } });
    const grants = await prepare(host, { read: ["${workspace}/**"] }, { operator: op });
    const { api } = invoke(host, grants, ws);
    expect(await api("readFile", "src/x.ts")).toBe("export {}");
    await deniedWith(api("readFile", "a.txt"), /outside the operator's ceiling \(hookbox\.yaml ceilings\.permissions\.read\)/);
  });

  it("per-hook approval narrows what the hook declared", async () => {
    const host = testHost();
    const grants = await prepare(
      host,
      { read: ["${workspace}/**"] },
      { operator: operator({ hooks: { "test-hook": { permissions: { read: ["${workspace}/src/**"] } } } }) },
    );
    await deniedWith(
      invoke(host, grants, ws).api("readFile", "a.txt"),
      /not approved by the operator for this hook \(hookbox\.yaml hooks\.test-hook\.permissions\.read\)/,
    );
  });

  it("/proc stays refused even when granted explicitly", async () => {
    const host = testHost();
    const grants = await prepare(host, { read: ["/proc/**"] }, { operator: operator({ ceilings: { read: ["/**"] } }) });
    await deniedWith(invoke(host, grants, ws).api("readFile", "/proc/self/environ"), /kernel file system/);
  });

  it("without a workspace: relative paths and ${workspace} grants match nothing", async () => {
    const host = testHost();
    const grants = await prepare(host, { read: ["${workspace}/**"] });
    const { api } = invoke(host, grants, undefined);
    await deniedWith(api("readFile", "a.txt"), /a relative path needs a workspace, and this event has none/);
    await deniedWith(api("readFile", `${ws}/a.txt`), /is not granted/);
    // "/" as a workspace would grant the whole disk: it counts as none.
    await deniedWith(invoke(host, grants, "/").api("readFile", "/etc/hostname"), /is not granted/);
  });
});

describe("hook.readFile between check and open (TOCTOU)", () => {
  /** An IO whose openFile first lets `swap` change the file system: the race, made deterministic. */
  function racingIO(swap: (path: string) => void): CapabilityIO {
    return { ...nodeCapabilityIO, openFile: (path) => (swap(path), nodeCapabilityIO.openFile(path)) };
  }

  it("a file swapped for a symlink after the check is refused, never read", async () => {
    const dir = tempDir();
    writeFileSync(`${dir}/f.txt`, "checked");
    const host = testHost({
      io: racingIO((path) => {
        unlinkSync(path);
        symlinkSync("/etc/hosts", path);
      }),
    });
    const grants = await prepare(host, { read: ["${workspace}/**"] });
    await deniedWith(invoke(host, grants, dir).api("readFile", "f.txt"), /was swapped for a symbolic link while it was being opened/);
    removeDir(dir);
  });

  it("a directory in the path swapped for a symlink after the check is refused", async () => {
    const dir = tempDir();
    mkdirSync(`${dir}/d`);
    writeFileSync(`${dir}/d/f.txt`, "checked");
    const host = testHost({
      io: racingIO(() => {
        renameSync(`${dir}/d`, `${dir}/d-old`);
        symlinkSync(outside, `${dir}/d`);
        writeFileSync(`${outside}/f.txt`, "outside secret");
      }),
    });
    const grants = await prepare(host, { read: ["${workspace}/**"] });
    const message = await deniedWith(invoke(host, grants, dir).api("readFile", "d/f.txt"), /changed while it was being opened/);
    expect(message).not.toContain("outside secret");
    removeDir(dir);
  });
});

describe("host call records", () => {
  it("records every call with its outcome, target and duration", async () => {
    const host = testHost();
    const grants = await prepare(host, { read: ["${workspace}/**"] });
    const { caps, api } = invoke(host, grants, ws);
    await api("readFile", "a.txt");
    await api("readFile", "/etc/passwd").catch(() => undefined);
    await api("readFile", "missing").catch(() => undefined);
    await api("nope").catch(() => undefined);
    expect(caps.hostCalls.map(({ capability, target, outcome }) => ({ capability, target, outcome }))).toEqual([
      { capability: "readFile", target: "a.txt", outcome: "allowed" },
      { capability: "readFile", target: "/etc/passwd", outcome: "denied" },
      { capability: "readFile", target: "missing", outcome: "error" },
      { capability: "nope", target: "", outcome: "error" },
    ]);
    for (const record of caps.hostCalls) expect(record.duration_ms).toBeGreaterThanOrEqual(0);
    expect(caps.hostCalls[1]?.detail).toMatch(/is not granted/);
  });
});
