import { fileURLToPath } from "node:url";
import { childWorker, createNodeHost, nodeSandboxHost } from "./node.ts";
import type { FetchHandler, ListenTarget, Listener, RuntimeHost } from "./types.ts";

declare const Deno: {
  execPath(): string;
  args: string[];
  serve(
    options: { path: string; transport: "unix"; onListen?: () => void } | { hostname: string; port: number; onListen?: () => void },
    handler: FetchHandler,
  ): { shutdown(): Promise<void>; finished: Promise<void>; addr: { port?: number } };
};

/** Deno runs the TypeScript sources directly: workers are `deno run` of the worker entry; the listener is Deno.serve. */
export function createDenoHost(): RuntimeHost {
  const base = createNodeHost();
  return createNodeHost({
    name: "deno",
    args: Deno.args,
    sandbox: {
      ...nodeSandboxHost,
      spawnWorker: () =>
        childWorker(Deno.execPath(), ["run", "--allow-read", "--allow-env", "--no-prompt", fileURLToPath(new URL("../worker.ts", import.meta.url))]),
    },
    net: {
      // base.net loads its methods lazily (a Proxy): spread, it would give none.
      request: (target, init) => base.net.request(target, init),
      requestWithPeer: (path, init, judge) => base.net.requestWithPeer(path, init, judge),
      peersUnverifiable: () => base.net.peersUnverifiable(),
      serve: async (handler: FetchHandler, target: ListenTarget): Promise<Listener> => {
        const options = "unix" in target ? { path: target.unix, transport: "unix" as const } : { hostname: target.hostname, port: target.port };
        let listening: () => void = () => undefined;
        const ready = new Promise<void>((resolve) => (listening = resolve));
        // onListen may fire before Deno.serve returns: wait on it separately.
        const server = Deno.serve({ ...options, onListen: () => listening() }, handler);
        await ready;
        return {
          address: "unix" in target ? `unix:${target.unix}` : `http://${target.hostname}:${server.addr.port ?? target.port}`,
          peerCredentials: false,
          close: async (graceMs) => {
            await Promise.race([server.shutdown(), new Promise((r) => setTimeout(r, graceMs))]);
          },
        };
      },
    },
  });
}
