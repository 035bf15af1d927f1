import type { CapturedOutput } from "../../platform/capability-io.ts";
import { decodeUtf8 } from "../text.ts";

/** Captured bytes as text; a long stream keeps its start and end with a marker where the middle was. */
export function capturedText(output: CapturedOutput): { readonly text: string; readonly truncated: boolean } {
  const kept = output.head.length + output.tail.length;
  const truncated = output.totalBytes > kept;
  const head = decodeUtf8(output.head, { cutAtEnd: truncated || output.tail.length > 0 });
  if (output.tail.length === 0) return { text: head, truncated };
  const tail = decodeUtf8(output.tail, { cutAtStart: true });
  return { text: `${head}\n…[${output.totalBytes - kept} bytes omitted]…\n${tail}`, truncated };
}

const SIGNALS: Readonly<Record<string, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGILL: 4,
  SIGTRAP: 5,
  SIGABRT: 6,
  SIGBUS: 7,
  SIGFPE: 8,
  SIGKILL: 9,
  SIGUSR1: 10,
  SIGSEGV: 11,
  SIGUSR2: 12,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
  SIGXCPU: 24,
  SIGXFSZ: 25,
};

/** The exit status a shell would report: the code, 128 + N after signal N, -1 on timeout. */
export function exitStatus(result: { readonly exitCode: number | null; readonly signal: string | null; readonly timedOut: boolean }): number {
  if (result.timedOut) return -1;
  if (result.exitCode !== null) return result.exitCode;
  const number = result.signal === null ? undefined : SIGNALS[result.signal];
  return number === undefined ? -1 : 128 + number;
}
