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
export declare function createHandlerSpec(input: HandlerSpecInput): Promise<HandlerSpec>;
/** Memory and stack are fixed when a slot's module is created, so they are part of its identity. */
export declare function slotKey(spec: HandlerSpec, memoryBytes: number, stackBytes: number): string;
