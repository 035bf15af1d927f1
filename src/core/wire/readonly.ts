import type { z } from "zod";

/** A value as it crosses the wire: nothing in it is changed by its reader (readonly all the way down). */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The type of what `schema` reads: every wire type is one. */
export type Wire<S extends z.ZodType> = DeepReadonly<z.output<S>>;
