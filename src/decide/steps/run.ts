import { splitCommandLine } from "../../capabilities/run/tokenize.ts";
import type { StepConfig } from "../../hooks/config/steps-schema.ts";
import { render, type TemplateScope } from "./template.ts";

/** One step's result, in the seed engine's field names, with its position (`_step_index`). */
export type StepResult = Readonly<Record<string, unknown>>;

/** A hook's host calls as the sandbox makes them: the same function, so the same permission checks. */
export type HostCall = (name: string, args: readonly unknown[], signal: AbortSignal) => Promise<unknown>;

/** The seed engine's caps on what a step keeps (characters). */
const OUTPUT_CHARS = 50_000;
const TEST_OUTPUT_CHARS = 100_000;
const MAX_FAILURES = 50;

/** A failed host call as the sandbox sees it: name, message, code. */
interface CallError {
  readonly message?: unknown;
  readonly code?: unknown;
}

/** A step cannot be allowed to turn a missing grant into an empty result: that fails the hook. */
export class StepDenied extends Error {
  constructor(
    readonly step: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Run one step through the hook's host calls. Its string inputs are templates over the event and
 * the steps before it; a command line is split into words before its placeholders are filled,
 * so a value from the event is always one argument, never several. A failure of the call is the
 * step's result (`{error}`, as in the seed); a denial fails the hook (StepDenied).
 */
export async function runStep(
  step: StepConfig,
  index: number,
  scope: TemplateScope,
  call: HostCall,
  signal: AbortSignal,
  remainingMs: number,
): Promise<StepResult> {
  const fill = (text: string): string => render(text, scope);
  const timeoutMs = (seconds: number): number => Math.max(1, Math.min(seconds * 1000, Math.floor(remainingMs)));
  const attempt = async (name: string, args: readonly unknown[]): Promise<{ value: unknown } | { error: string }> => {
    try {
      return { value: await call(name, args, signal) };
    } catch (error) {
      const { message, code } = (error ?? {}) as CallError;
      const text = typeof message === "string" ? message : String(error);
      if (code === "capability_denied") throw new StepDenied(index, `step_${index} (${step.type}): ${text}`);
      return { error: text };
    }
  };
  const result = await (async (): Promise<Record<string, unknown>> => {
    switch (step.type) {
      case "shell": {
        const argv = words(step.command, fill);
        if ("error" in argv) return { error: argv.error, exit_code: -1, stdout: "", stderr: argv.error };
        const [cmd, ...args] = argv.words;
        const ran = await attempt("run", [cmd, args, { timeoutMs: timeoutMs(step.timeout) }]);
        if ("error" in ran) return { error: ran.error, stdout: "", stderr: ran.error };
        const out = ran.value as { exitCode: number; stdout: string; stderr: string; timedOut: boolean };
        const stderr = out.timedOut ? `${out.stderr}\n[the command did not finish within ${step.timeout} s and was killed]` : out.stderr;
        return { stdout: out.stdout, stderr, exit_code: out.timedOut ? -1 : out.exitCode };
      }
      case "read_file": {
        const read = await attempt("readFile", [fill(step.path)]);
        if ("error" in read) return { error: read.error };
        const lines = String(read.value).split("\n").slice(0, step.max_lines);
        return { content: lines.join("\n").replace(/\n+$/, "") };
      }
      case "http": {
        const got = await attempt("http.get", [fill(step.url), { timeoutMs: timeoutMs(step.timeout) }]);
        if ("error" in got) return { error: got.error, body: "", status_code: 0 };
        const response = got.value as { status: number; body: string };
        return { body: response.body.slice(0, OUTPUT_CHARS), status_code: response.status };
      }
      case "git_diff": {
        const diff = await attempt("gitDiff", [fill(step.base_branch)]);
        if ("error" in diff) return { error: diff.error, diff: "" };
        return { diff: String(diff.value).slice(0, OUTPUT_CHARS), exit_code: 0 };
      }
      case "run_tests": {
        const argv = words(step.command, fill);
        if ("error" in argv)
          return {
            error: argv.error,
            exit_code: -1,
            passed: false,
            failures: [],
            test_count: 0,
            stdout: "",
            stderr: argv.error,
            framework: step.framework,
          };
        const tests = await attempt("runTests", [argv.words, { framework: step.framework, timeoutMs: timeoutMs(step.timeout) }]);
        if ("error" in tests)
          return { error: tests.error, passed: false, failures: [], test_count: 0, stdout: "", stderr: tests.error, framework: step.framework };
        const run = tests.value as {
          passed: boolean;
          failures: string[];
          testCount: number;
          exitCode: number;
          output: string;
          timedOut: boolean;
          framework: string;
        };
        return {
          // The capability gives stdout and stderr together, as the runner printed them.
          stdout: run.output.slice(-TEST_OUTPUT_CHARS),
          stderr: run.timedOut ? `[the tests did not finish within ${step.timeout} s and were killed]` : "",
          exit_code: run.timedOut ? -1 : run.exitCode,
          passed: run.passed,
          failures: run.failures.slice(0, MAX_FAILURES),
          test_count: run.testCount,
          framework: run.framework,
        };
      }
      case "list_files": {
        const directory = fill(step.path);
        const listed = await attempt("listFiles", [
          directory,
          {
            recursive: step.recursive,
            ...(step.extensions ? { extensions: step.extensions } : {}),
            maxFiles: step.max_files,
            hidden: step.hidden,
            details: true,
          },
        ]);
        if ("error" in listed) return { error: listed.error, files: [], count: 0, directory, content: "" };
        const files = listed.value as { path: string; size: number; mtime: number }[];
        return { files, count: files.length, directory, content: files.map((file) => file.path).join("\n") };
      }
      case "file_diff": {
        const path = fill(step.path);
        const diff = await attempt("fileDiff", [path]);
        if ("error" in diff) return { error: diff.error, diff: "", path };
        return { diff: String(diff.value).slice(0, OUTPUT_CHARS), path, exit_code: 0 };
      }
    }
  })();
  return { ...result, _step_index: index };
}

/**
 * A command line as words (quotes honoured, no shell), each word's placeholders filled in on its
 * own. Placeholders are set aside while the line is split: their braces are not shell syntax.
 */
function words(line: string, fill: (text: string) => string): { words: string[] } | { error: string } {
  const placeholders: string[] = [];
  const marked = line.replace(/\{\{[^{}]*\}\}/g, (placeholder) => `\uE000${placeholders.push(placeholder) - 1}\uE001`);
  const split = splitCommandLine(marked);
  if (!split.ok) return { error: `the command line ${JSON.stringify(line.slice(0, 200))} cannot be split into words: ${split.error}` };
  const filled = split.argv.map((word) => fill(word.replace(/\uE000(\d+)\uE001/g, (_, index: string) => placeholders[Number(index)] as string)));
  if (filled.length === 0 || filled[0] === "") return { error: "the command is empty" };
  return { words: filled };
}
