// A plain stand-in for the hook program: hooks/record-and-answer.mjs logs every payload the agent
// sends and answers from per-event files this class writes. Proves the harness without Hookbox.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const SCRIPT = resolve(import.meta.dirname, "hooks/record-and-answer.mjs");

/** What the hook does for one event: print `stdout` (objects as JSON), write `stderr`, exit `exit`. */
export interface HookAnswer {
  readonly stdout?: Readonly<Record<string, unknown>> | string;
  readonly stderr?: string;
  readonly exit?: number;
}

export interface HookCall {
  readonly event: string;
  readonly payload: Record<string, unknown>;
  readonly env: Readonly<Record<string, string | null>>;
  /** Names of every environment variable the hook process received (values are not logged). */
  readonly envNames: readonly string[];
}

export class HookRecorder {
  readonly dir = mkdtempSync(join(tmpdir(), "hookbox-hook-recorder-"));

  constructor() {
    mkdirSync(join(this.dir, "answers"));
  }

  /** The command line for an event — the `command` parameter of the harnesses. */
  readonly command = (event: string): string => [process.execPath, SCRIPT, this.dir, event].map(shellQuote).join(" ");

  answer(event: string, answer: HookAnswer): this {
    writeFileSync(join(this.dir, "answers", `${event}.json`), JSON.stringify(answer));
    return this;
  }

  /** Every invocation so far, in the order the hooks ran. */
  calls(): HookCall[] {
    const log = join(this.dir, "log.jsonl");
    if (!existsSync(log)) return [];
    return readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as HookCall);
  }

  events(): string[] {
    return this.calls().map((call) => call.event);
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
