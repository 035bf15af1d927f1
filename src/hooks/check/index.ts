// src/hooks/check owns type-checking handlers against the handler API with the TypeScript compiler
// bundled in the binary. Import it only with import(): the compiler is large, and only
// `hookbox check` and `validate --types` load it. It imports nothing from the rest of Hookbox
// but the diagnostic type.
export { typeCheckHandlers, TYPESCRIPT_VERSION, type HandlerToCheck } from "./typecheck.ts";
