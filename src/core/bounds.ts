// Bounds that both a capability (hook.injectContext) and the chain (the merged injections) enforce,
// apart from the config schemas (zod) so that answering an event does not build every schema first.

/** One injection may be at most this long, in bytes (the seed engine's number: 10 KiB). */
export const MAX_INJECTION_BYTES = 10 * 1024;
