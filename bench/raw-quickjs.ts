// The floor: quickjs-emscripten used directly, with the same marshalling Hookbox does (JSON text
// in, JSON.parse in the guest, call, JSON.stringify in the guest, text out) and nothing else:
// no limits, no interrupt handler, no bridge, no bookkeeping.
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { releaseVariant } from "../sandbox/index.ts";

export async function rawModule(wasmBytes: Uint8Array): Promise<QuickJSWASMModule> {
  const compiled = await WebAssembly.compile(wasmBytes as Uint8Array<ArrayBuffer>);
  const memory = new WebAssembly.Memory({ initial: 256, maximum: 1024 });
  return newQuickJSWASMModuleFromVariant(newVariant(releaseVariant, { wasmModule: compiled, wasmMemory: memory }));
}

function callOnce(context: QuickJSContext, handler: QuickJSHandle, parse: QuickJSHandle, stringify: QuickJSHandle, eventJson: string): unknown {
  const text = context.newString(eventJson);
  const event = context.unwrapResult(context.callFunction(parse, context.undefined, text));
  text.dispose();
  const result = context.unwrapResult(context.callFunction(handler, context.undefined, event));
  event.dispose();
  const json = context.unwrapResult(context.callFunction(stringify, context.undefined, result));
  result.dispose();
  const out = context.getString(json);
  json.dispose();
  return JSON.parse(out);
}

/** Warm: one context, the handler evaluated once, called per event. */
export function rawWarm(module: QuickJSWASMModule, handlerJs: string): (eventJson: string) => unknown {
  const runtime = module.newRuntime();
  const context = runtime.newContext();
  const namespace = context.unwrapResult(context.evalCode(handlerJs, "handler.js", { type: "module" }));
  const handler = context.getProp(namespace, "default");
  namespace.dispose();
  const json = context.getProp(context.global, "JSON");
  const parse = context.getProp(json, "parse");
  const stringify = context.getProp(json, "stringify");
  json.dispose();
  return (eventJson) => callOnce(context, handler, parse, stringify, eventJson);
}

/** Fresh: a new runtime and context per event, the handler evaluated each time. */
export function rawFresh(module: QuickJSWASMModule, handlerJs: string): (eventJson: string) => unknown {
  return (eventJson) => {
    const runtime = module.newRuntime();
    const context = runtime.newContext();
    const namespace = context.unwrapResult(context.evalCode(handlerJs, "handler.js", { type: "module" }));
    const handler = context.getProp(namespace, "default");
    namespace.dispose();
    const json = context.getProp(context.global, "JSON");
    const parse = context.getProp(json, "parse");
    const stringify = context.getProp(json, "stringify");
    json.dispose();
    const out = callOnce(context, handler, parse, stringify, eventJson);
    for (const handle of [handler, parse, stringify]) handle.dispose();
    context.dispose();
    runtime.dispose();
    return out;
  };
}
