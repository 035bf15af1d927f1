import { sha256Hex } from "./hash.ts";
import type { CompiledHandler } from "./transpile.ts";
import type { HandlerSpec, Isolation } from "./types.ts";

export interface HandlerSpecInput {
  readonly id: string;
  readonly handler: CompiledHandler;
  readonly hostFunctions?: readonly string[];
  readonly hookData?: Readonly<Record<string, unknown>>;
  readonly isolation?: Isolation;
}

/** Build a spec once per loaded hook; its key is a hash of everything the guest context depends on. */
export async function createHandlerSpec(input: HandlerSpecInput): Promise<HandlerSpec> {
  const hostFunctions = [...(input.hostFunctions ?? [])].sort();
  const hookData = input.hookData ?? {};
  const isolation = input.isolation ?? "warm";
  const key = await sha256Hex(JSON.stringify([input.id, input.handler.codeHash, hostFunctions, hookData, isolation]));
  return { id: input.id, handler: input.handler, hostFunctions, hookData, isolation, key };
}

/** Memory and stack are fixed when a slot's module is created, so they are part of its identity. */
export function slotKey(spec: HandlerSpec, memoryBytes: number, stackBytes: number): string {
  return `${spec.key}:${memoryBytes}:${stackBytes}`;
}
