import { createNodeHost, nodeSandboxHost } from "./node.ts";
import type { RuntimeHost } from "./types.ts";

declare const Deno: { execPath(): string; args: string[] };

/** Deno: runs the TypeScript sources directly; workers are `deno run` of the worker entry. */
export function createDenoHost(): RuntimeHost {
  return createNodeHost({
    name: "deno",
    args: Deno.args,
    sandbox: {
      ...nodeSandboxHost,
    },
  });
}
