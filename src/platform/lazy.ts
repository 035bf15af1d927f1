/**
 * An object whose (async) methods load their implementation on first call: a command pays at
 * startup only for the runtime pieces it uses (emit never loads the capability or server code).
 */
export function lazyAsyncMethods<T extends object>(load: () => Promise<T>): T {
  let loaded: Promise<T> | undefined;
  return new Proxy({} as T, {
    get:
      (_target, name) =>
      async (...args: unknown[]) => {
        const implementation = (await (loaded ??= load())) as Record<string | symbol, (...a: unknown[]) => unknown>;
        return implementation[name]?.(...args);
      },
  });
}
