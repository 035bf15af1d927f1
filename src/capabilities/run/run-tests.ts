import { arity, intOption, optionsArg, stringArg } from "../args.ts";
import type { HostMethod, InvocationScope } from "../capability.ts";
import { renderCall } from "../denied.ts";
import { invalidArgument } from "../errors.ts";
import { renderCommandLine } from "./argv.ts";
import { capturedText, exitStatus } from "./output.ts";
import { argvArg, RUN_MAX_TIMEOUT_MS, STDOUT_MAX_BYTES } from "./run-method.ts";
import { detectFramework, parseTestOutput, type TestFramework } from "./test-output.ts";
import { splitCommandLine } from "./tokenize.ts";

const TESTS_DEFAULT_TIMEOUT_MS = 5 * 60_000;
/** Parsed from up to this much of each stream's start and end (the summary is at the end). */
const PARSE_WINDOW_BYTES = 512 * 1024;
const FRAMEWORKS = ["auto", "pytest", "jest", "vitest"] as const;

/**
 * hook.runTests(command, {framework, timeoutMs}) → {passed, failures, testCount, exitCode,
 * output, timedOut, framework}. `command` is argv (an array) or a command line split like a
 * shell splits words (no shell runs); it needs a run grant like any command. passed is true
 * when the runner exited 0; output is the last 50 KiB of stdout then stderr.
 */
export function runTestsMethod(scope: InvocationScope): HostMethod {
  return async (args, call) => {
    arity("runTests", args, 2);
    const argv = typeof args[0] === "string" ? splitArgv(args[0]) : argvArg("runTests", args[0]);
    const [cmd, ...rest] = argv;
    if (cmd === undefined) throw invalidArgument("hook.runTests: command is empty");
    call.target = renderCommandLine(cmd, rest);
    const options = optionsArg("runTests", args[1], ["framework", "timeoutMs"]);
    const framework =
      options.framework === undefined || options.framework === null ? "auto" : stringArg("runTests", "framework", options.framework, 16);
    if (!(FRAMEWORKS as readonly string[]).includes(framework))
      throw invalidArgument(`hook.runTests: framework must be one of ${FRAMEWORKS.join(", ")}, got ${JSON.stringify(framework)}`);
    const timeoutMs = intOption("runTests", options, "timeoutMs", { min: 1, max: RUN_MAX_TIMEOUT_MS, fallback: TESTS_DEFAULT_TIMEOUT_MS });
    const window = { headBytes: PARSE_WINDOW_BYTES, tailBytes: PARSE_WINDOW_BYTES };
    const result = await scope.runner.run({
      call: renderCall("runTests", [args[0]]),
      cmd,
      args: rest,
      timeoutMs,
      stdout: window,
      stderr: window,
      signal: call.signal,
    });
    const output = `${capturedText(result.stdout).text}\n${capturedText(result.stderr).text}`;
    const detected = framework === "auto" ? detectFramework(argv, output) : (framework as TestFramework);
    const { failures, testCount } = parseTestOutput(detected, output);
    const exitCode = exitStatus(result);
    return {
      passed: exitCode === 0,
      failures,
      testCount,
      exitCode,
      output: output.length > STDOUT_MAX_BYTES ? `…${output.slice(-STDOUT_MAX_BYTES)}` : output,
      timedOut: result.timedOut,
      framework: detected ?? "unknown",
    };
  };
}

function splitArgv(line: string): string[] {
  const split = splitCommandLine(stringArg("runTests", "command", line, 64 * 1024));
  if (!split.ok) throw invalidArgument(`hook.runTests: ${split.error}`);
  return split.argv;
}
