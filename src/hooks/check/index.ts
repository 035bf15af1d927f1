// src/hooks/check owns type-checking handlers against the handler API; it must not import the rest of Hookbox but the diagnostic type.
// With the TypeScript compiler bundled in the binary. Import it only with import(): the compiler is large, and only
// `hookbox check` and `validate --types` load it.
export { typeCheckHandlers, TYPESCRIPT_VERSION, type HandlerToCheck } from "./typecheck.ts";
