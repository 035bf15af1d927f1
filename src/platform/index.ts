// src/platform owns every use of Bun.*, Deno.* and node:* APIs (nothing else may use them); it must not import src/core or any wing above.
// This file picks the adapter for the runtime we are on and loads only that one.
import type { LeanHost, RuntimeHost, SandboxHost } from "./types.ts";

export type { FileIdentity, PeerEvidence, PeerJudge, PeerProcess, PeeredReply } from "./peer-types.ts";
export type {
  AppendHandle,
  ConnectionInfo,
  DaemonHost,
  DesktopHost,
  DigestHost,
  FileLock,
  FileRange,
  MessageSocket,
  MessageTarget,
  NotifyIO,
  SocketHost,
  HttpRequestInit,
  LeanHost,
  DirEntry,
  FileHost,
  LockIO,
  FetchHandler,
  HttpReply,
  ListenTarget,
  Listener,
  NetHost,
  RuntimeHost,
  SandboxHost,
} from "./types.ts";
export type { CapabilityIO } from "./capability-io.ts";
export type { PackageIO } from "./package-io.ts";

export async function detectRuntime(): Promise<RuntimeHost> {
  const g = globalThis as { Bun?: unknown; Deno?: unknown };
  if (g.Bun) return (await import("./bun.ts")).createBunHost();
  if (g.Deno) return (await import("./deno.ts")).createDenoHost();
  return (await import("./node.ts")).createNodeHost();
}

/** A LeanHost for `hookbox emit`: on Bun without loading the full adapter, elsewhere the full host. */
export async function detectLeanRuntime(): Promise<LeanHost> {
  const g = globalThis as { Bun?: { env: Record<string, string | undefined> } };
  if (g.Bun?.env.HOME) return (await import("./bun-lean.ts")).createBunLeanHost();
  return leanHostOf(await detectRuntime());
}

/** A whole RuntimeHost seen as a LeanHost. */
export function leanHostOf(host: RuntimeHost): LeanHost {
  return { ...host, invokedAs: () => host.binaryPath(), full: async () => host };
}

/** Inside a sandbox worker thread: the wasm and the port to the parent, loading as little as possible. */
export async function detectThreadRuntime(): Promise<Pick<SandboxHost, "loadQuickJsWasm" | "threadWorkerIO">> {
  if ((globalThis as { Bun?: unknown }).Bun) return (await import("./bun-thread.ts")).bunThreadSandbox;
  return (await detectRuntime()).sandbox;
}
