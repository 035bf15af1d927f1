// Bounds the evaluation path needs at run time, apart from schema.ts (zod, the config schemas)
// so that answering an event does not build every config schema first.

/** One injection may be at most this long, in bytes (the seed engine's number: 10 KiB). */
export const MAX_INJECTION_BYTES = 10 * 1024;
