import { HookboxError, errorMessage } from "../core/errors.ts";
import { createExecutor, type Executor } from "../decide/executor.ts";
import type { RuntimeHost } from "../platform/index.ts";

/** What every command receives: the runtime and the two output streams. */
export interface CliContext {
  readonly host: RuntimeHost;
  out(text: string): Promise<void>;
  err(text: string): void;
}

export function createCliContext(host: RuntimeHost): CliContext {
  return { host, out: (text) => host.writeStdout(text), err: (text) => host.writeStderr(text) };
}

export async function readTextFile(ctx: CliContext, path: string, what: string): Promise<string> {
  try {
    return path === "-" ? await ctx.host.readStdin(16 * 1024 * 1024) : await ctx.host.fs.readText(path);
  } catch (error) {
    throw new HookboxError("file_unreadable", `cannot read ${what} ${path === "-" ? "from stdin" : path}: ${errorMessage(error)}`);
  }
}

export function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HookboxError("event_invalid", `${source} is not valid JSON: ${errorMessage(error)}`);
  }
}

/** `size` sandbox workers (this program in worker mode), ready. */
export async function openPool(ctx: CliContext, size: number): Promise<Executor> {
  const pool = await createExecutor({ sandbox: ctx.host.sandbox, workers: size });
  await pool.ready();
  return pool;
}
