import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { runProgram } from "../helpers/binary.ts";

/**
 * What src/platform/bun-peer.ts reads of the process at the other end of a unix socket, against
 * servers built to mislead it: a listener that handed its socket to another process (alive, or
 * gone), a server naming a wrong descriptor for its end. Linux only (the platform table's
 * daemonProof "procfs"); run under Bun, as the binary reads it.
 */
const ROOT = resolve(import.meta.dirname, "../..");
const BUN = resolve(ROOT, "node_modules/.bin/bun");
const PROBE = resolve(import.meta.dirname, "fixtures/peer-probe.ts");

/** node:http on argv[2]; argv[3], when given, the descriptor its answers claim for the server end. */
const PLAIN = `
const http = require("node:http");
const [path, hint] = process.argv.slice(2);
http.createServer((req, res) => { req.resume(); if (hint) res.setHeader("x-hookbox-connection-fd", hint); res.end("{}"); }).listen(path, () => console.log("listening"));
`;

/**
 * argv[1]: the socket. The parent listens, forks, and closes its copy: the child, which inherited
 * the listening socket, accepts and answers (without listening again, which would make it the
 * process SO_PEERCRED names). argv[2] "stay" keeps the parent alive, "exit" ends it. Python: a
 * child of node would call listen() again on a socket handed to it.
 */
const HANDED = `
import os, socket, sys, time
path, mode = sys.argv[1], sys.argv[2]
server = socket.socket(socket.AF_UNIX)
server.bind(path)
server.listen(16)
child = os.fork()
if child == 0:
    while True:
        connection, _ = server.accept()
        connection.recv(65536)
        connection.sendall(b"HTTP/1.1 200 OK\\r\\ncontent-length: 2\\r\\n\\r\\n{}")
        while connection.recv(65536):
            pass
        connection.close()
server.close()
print("handed %d" % child, flush=True)
if mode == "exit":
    os._exit(0)
time.sleep(3600)
`;

let dir: string;
const children: ChildProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hookbox-peer-"));
  writeFileSync(join(dir, "plain.js"), PLAIN);
  writeFileSync(join(dir, "handed.py"), HANDED);
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Evidence {
  read: boolean;
  why?: string;
  gone?: boolean;
  peer?: { pid: number; uid: number; holdsConnection?: boolean; executable: { id: string; path: string }; environ: string[]; tracerPid: number };
}

async function probe(socket: string): Promise<{ connected: Evidence; answered?: Evidence; status?: number }> {
  const out = await runProgram([BUN, PROBE, socket], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir } });
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as { connected: Evidence; answered?: Evidence; status?: number };
}

/** A server script run by node (or python3, for .py); resolves with its first line of output. */
function start(script: string, args: readonly string[]): Promise<{ child: ChildProcess; first: string }> {
  const child = spawn(script.endsWith(".py") ? "python3" : process.execPath, [join(dir, script), ...args], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, PROBE_MARK: "1" },
  });
  children.push(child);
  return new Promise((resolvePromise, reject) => {
    child.stdout?.once("data", (chunk: Buffer) => resolvePromise({ child, first: chunk.toString().trim() }));
    child.once("exit", (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

function linuxOnly(ctx: TestContext): void {
  if (process.platform !== "linux" || !["x64", "arm64"].includes(process.arch))
    ctx.skip("bun-peer.ts reads /proc and sock_diag: Linux on x86-64 and arm64 only");
}

async function needsPython(ctx: TestContext): Promise<void> {
  const found = await runProgram(["python3", "--version"], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } }).catch(() => undefined);
  if (!found || found.code !== 0) ctx.skip("python3 is not installed (the forking server is written in it)");
}

describe("the peer of a unix socket connection, as bun-peer.ts reads it (Linux)", () => {
  it("a plain server: its pid and uid, its executable by device and inode, its environment, and — once answered — that it holds the connection, whatever descriptor it claims", async (ctx) => {
    linuxOnly(ctx);
    for (const hint of ["", "0", "9999"]) {
      const socket = join(dir, `plain${hint}.sock`);
      const { child } = await start("plain.js", [socket, hint]);
      const { connected, answered, status } = await probe(socket);
      expect(status).toBe(200);
      expect(connected).toMatchObject({ read: true, peer: { pid: child.pid, uid: process.getuid?.(), tracerPid: 0 } });
      expect(connected.peer?.holdsConnection, "not known before the answer").toBeUndefined();
      expect(connected.peer?.executable.id).toMatch(new RegExp(`:${statSync(process.execPath).ino}$`));
      expect(connected.peer?.environ).toContain("PROBE_MARK=1");
      expect(answered, `hint ${JSON.stringify(hint)}`).toMatchObject({ read: true, peer: { pid: child.pid, holdsConnection: true } });
      child.kill("SIGKILL");
    }
  });

  it("a listener that handed its socket to another process, which answers: the listener read does not hold the connection", async (ctx) => {
    linuxOnly(ctx);
    await needsPython(ctx);
    const socket = join(dir, "handed.sock");
    const { child, first } = await start("handed.py", [socket, "stay"]);
    children.push({ kill: () => process.kill(Number(first.split(" ")[1]), "SIGKILL") } as unknown as ChildProcess);
    const { connected, answered } = await probe(socket);
    expect(connected).toMatchObject({ read: true, peer: { pid: child.pid } });
    expect(answered).toMatchObject({ read: true, peer: { pid: child.pid, holdsConnection: false } });
  });

  it("a listener that handed its socket on and exited: gone — the socket answers, but the process the kernel names is not there", async (ctx) => {
    linuxOnly(ctx);
    await needsPython(ctx);
    const socket = join(dir, "orphan.sock");
    const { child, first } = await start("handed.py", [socket, "exit"]);
    children.push({ kill: () => process.kill(Number(first.split(" ")[1]), "SIGKILL") } as unknown as ChildProcess);
    await new Promise((resolvePromise) => (child.exitCode !== null ? resolvePromise(undefined) : child.once("exit", resolvePromise)));
    const { connected } = await probe(socket);
    expect(connected).toMatchObject({
      read: false,
      gone: true,
      why: expect.stringMatching(/the process that listened on it \(pid \d+\) has exited/),
    });
  });
});
