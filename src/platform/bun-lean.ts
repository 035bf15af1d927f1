import { bunRequest } from "./bun-http.ts";
import { isCompiledBinary } from "./bun-compiled.ts";
import { syscalls } from "./bun-libc.ts";
import { bunPeersUnverifiable, bunRequestWithPeer } from "./bun-peer.ts";
import { concatBytes } from "./http1.ts";
import { stdoutQueue } from "./stdout-queue.ts";
import type { HttpReply, HttpRequestInit, LeanHost, ListenTarget } from "./types.ts";

/**
 * Bun's LeanHost: only Bun's globals and, on Linux, libc through bun:ffi — no node:* module (see
 * LeanHost). Needs $HOME (else the password database would be asked, through node:os). The full
 * adapter (bun.ts) builds on the same stdin and stdout functions.
 */
export function createBunLeanHost(): LeanHost {
  // $HOME is what node:os homedir() returns first too; without it detectLeanRuntime takes the full host.
  const home = process.env.HOME as string;
  return {
    name: "bun",
    args: process.argv.slice(2),
    env: process.env,
    uid: () => process.geteuid?.(),
    executablePath: () => (isCompiledBinary() ? process.execPath : undefined),
    cwd: () => process.cwd(),
    homeDir: () => home,
    exit: bunStdout.exit,
    writeStdout: bunStdout.write,
    writeStderr: writeBunStderr,
    readStdin: async (maxBytes) => {
      const sys = syscalls();
      return sys ? strictUtf8(sys.readAll(0, maxBytes)) : readBunStdin(maxBytes);
    },
    net: { request: leanRequest, requestWithPeer: bunRequestWithPeer, peersUnverifiable: async () => bunPeersUnverifiable() },
    invokedAs: leanInvokedAs,
    full: async () => (await import("./bun.ts")).createBunHost(),
  };
}

/** argv[0] as an absolute path (a bare name as PATH finds it), when this is the compiled binary; no file is opened. */
function leanInvokedAs(): string | undefined {
  if (!import.meta.url.includes("$bunfs")) return undefined;
  const invoked = process.argv0;
  if (invoked.startsWith("/")) return invoked;
  if (invoked.includes("/")) return `${process.cwd()}/${invoked}`;
  return Bun.which(invoked) ?? undefined;
}

/** A unix socket through blocking system calls where they are available (see bun-libc.ts), else Bun.connect. */
async function leanRequest(target: ListenTarget, init: HttpRequestInit): Promise<HttpReply> {
  const sys = "unix" in target ? syscalls() : undefined;
  return sys && "unix" in target ? sys.unixRequest(target.unix, init) : bunRequest(target, init);
}

/** Bun's own stdin: process.stdin costs ~15 ms to set up in Bun, on every `emit`. */
export async function readBunStdin(maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of Bun.stdin.stream()) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new RangeError(`stdin is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return strictUtf8(concatBytes(chunks));
}

/** UTF-8 text, or a TypeError naming what is wrong: stdin must never be read with bytes replaced. */
export function strictUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new TypeError("stdin is not valid UTF-8");
  }
}

/** Bun's stdout, for the lean and the full host alike (one stdout, one queue): Bun.write is asynchronous. */
export const bunStdout = stdoutQueue(
  async (text) => void (await Bun.write(Bun.stdout, text)),
  (code) => process.exit(code),
);

/**
 * console.error, not process.stderr (whose stream machinery doubles a hello world's start) nor
 * Bun.write (asynchronous: a process.exit right after it was seen to lose the text). Bun's
 * console writes synchronously; it ends every call with a newline, so one ending the text is
 * dropped first.
 */
export function writeBunStderr(text: string): void {
  console.error("%s", text.endsWith("\n") ? text.slice(0, -1) : text);
}
