import { arity, intOption, optionsArg, stringArg, stringListArg } from "../args.ts";
import type { HostMethod, InvocationScope } from "../capability.ts";
import { renderCall } from "../denied.ts";
import { invalidArgument } from "../errors.ts";
import { renderCommandLine } from "./argv.ts";
import { capturedText, exitStatus } from "./output.ts";

/** The seed engine's caps: what a handler gets back from one command. */
export const STDOUT_MAX_BYTES = 50 * 1024;
export const STDERR_MAX_BYTES = 10 * 1024;
export const RUN_DEFAULT_TIMEOUT_MS = 30_000;
export const RUN_MAX_TIMEOUT_MS = 15 * 60_000;
const STDIN_MAX_CHARS = 1024 * 1024;
/** Linux's ARG_MAX is 2 MiB with the environment; stay far below it. */
const ARGV_MAX_CHARS = 256 * 1024;

export function argvArg(api: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const argv = stringListArg(api, "args", value, { maxItems: 1024, maxChars: ARGV_MAX_CHARS });
  if (argv.reduce((sum, arg) => sum + arg.length + 1, 0) > ARGV_MAX_CHARS)
    throw invalidArgument(`hook.${api}: the arguments are longer than ${ARGV_MAX_CHARS} characters together`);
  return argv;
}

/**
 * hook.run(cmd, args, {cwd, timeoutMs, stdin}) → {exitCode, stdout, stderr, timedOut, truncated}.
 * exitCode is -1 on timeout and 128 + N after signal N; stdout keeps its first 50 KiB, stderr
 * its first 10 KiB (truncated says when either was cut); stdin is closed unless given.
 */
export function runMethod(scope: InvocationScope): HostMethod {
  return async (args, call) => {
    arity("run", args, 3);
    const cmd = stringArg("run", "cmd", args[0], 4096);
    const argv = argvArg("run", args[1]);
    call.target = renderCommandLine(cmd, argv);
    const options = optionsArg("run", args[2], ["cwd", "timeoutMs", "stdin"]);
    const cwd = options.cwd === undefined || options.cwd === null ? undefined : stringArg("run", "cwd", options.cwd, 4096);
    const stdin =
      options.stdin === undefined || options.stdin === null
        ? undefined
        : stringArg("run", "stdin", options.stdin, STDIN_MAX_CHARS, { allowEmpty: true });
    const timeoutMs = intOption("run", options, "timeoutMs", { min: 1, max: RUN_MAX_TIMEOUT_MS, fallback: RUN_DEFAULT_TIMEOUT_MS });
    const result = await scope.runner.run({
      call: renderCall("run", [cmd, argv]),
      cmd,
      args: argv,
      ...(cwd === undefined ? {} : { cwd }),
      ...(stdin === undefined ? {} : { stdin }),
      timeoutMs,
      stdout: { headBytes: STDOUT_MAX_BYTES, tailBytes: 0 },
      stderr: { headBytes: STDERR_MAX_BYTES, tailBytes: 0 },
      signal: call.signal,
    });
    const stdout = capturedText(result.stdout);
    const stderr = capturedText(result.stderr);
    return {
      exitCode: exitStatus(result),
      stdout: stdout.text,
      stderr: stderr.text,
      timedOut: result.timedOut,
      truncated: stdout.truncated || stderr.truncated,
    };
  };
}
