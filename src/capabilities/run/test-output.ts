/**
 * Test runner output → {failures, testCount} for pytest, jest and vitest (the seed engine's
 * three). Output is read as text lines (colour is off: NO_COLOR=1, TERM=dumb); the parsers
 * look at both streams, since jest and vitest report failures on stderr.
 */

export type TestFramework = "pytest" | "jest" | "vitest";

export interface ParsedTests {
  /** Failed test names, in the runner's own spelling (file::test, Suite › test, file > suite > test). */
  readonly failures: readonly string[];
  /** Tests the runner counted (passed, failed, skipped …); 0 when no summary was found. */
  readonly testCount: number;
}

/** Which runner, from the command line first, then from the shape of the output. */
export function detectFramework(argv: readonly string[], output: string): TestFramework | undefined {
  const words = argv.map((word) => word.slice(word.lastIndexOf("/") + 1));
  if (words.some((word) => word === "pytest" || word === "py.test")) return "pytest";
  if (words.includes("vitest")) return "vitest";
  if (words.includes("jest")) return "jest";
  if (/^\s*Test Files\s/m.test(output)) return "vitest";
  if (/^Tests:\s/m.test(output)) return "jest";
  if (/^=+ .* in [\d.]+s/m.test(output) || /short test summary info/.test(output) || /^\d+ (passed|failed)/m.test(output)) return "pytest";
  return undefined;
}

function unique(items: Iterable<string>): string[] {
  return [...new Set(items)];
}

/** "2 failed, 1 passed, 1 skipped" / "2 failed | 2 passed" → {failed: 2, passed: 1, …}. */
function counts(text: string): Record<string, number> {
  const found: Record<string, number> = {};
  for (const match of text.matchAll(/(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|todo|total|pending)/g)) {
    const key = (match[2] as string).replace(/^errors$/, "error");
    found[key] = (found[key] ?? 0) + Number(match[1]);
  }
  return found;
}

function parsePytest(lines: readonly string[]): ParsedTests {
  let failures = unique(lines.flatMap((line) => /^(?:FAILED|ERROR) (\S+)/.exec(line)?.[1] ?? []));
  if (failures.length === 0) {
    // Without the short summary (-rN), the FAILURES section's headers name the tests.
    failures = unique(lines.flatMap((line) => /^_{3,} (\S.*?) _{3,}$/.exec(line)?.[1] ?? []));
  }
  const summary = [...lines]
    .reverse()
    .find((line) => /^=*\s*(\d+ (passed|failed|errors?|skipped|xfailed|xpassed|deselected)|no tests ran)\b.* in [\d.]+s/.test(line));
  const c = counts(summary ?? "");
  const testCount = (c.passed ?? 0) + (c.failed ?? 0) + (c.error ?? 0) + (c.skipped ?? 0) + (c.xfailed ?? 0) + (c.xpassed ?? 0);
  return { failures, testCount };
}

function parseJest(lines: readonly string[]): ParsedTests {
  const failures = unique(lines.flatMap((line) => /^\s*● (.+?)\s*$/.exec(line)?.[1] ?? []));
  const summary = [...lines].reverse().find((line) => /^Tests:\s/.test(line)) ?? "";
  return { failures, testCount: counts(summary).total ?? 0 };
}

function parseVitest(lines: readonly string[]): ParsedTests {
  let failures = unique(lines.flatMap((line) => /^\s*FAIL\s+(\S.*? > .+?)\s*$/.exec(line)?.[1] ?? []));
  if (failures.length === 0) failures = unique(lines.flatMap((line) => /^\s*[×✗] (.+?)(?: \d+ms)?\s*$/.exec(line)?.[1] ?? []));
  const summary = [...lines].reverse().find((line) => /^\s*Tests\s+\d/.test(line)) ?? "";
  const total = /\((\d+)\)\s*$/.exec(summary)?.[1];
  return { failures, testCount: total === undefined ? 0 : Number(total) };
}

const PARSERS: Readonly<Record<TestFramework, (lines: readonly string[]) => ParsedTests>> = {
  pytest: parsePytest,
  jest: parseJest,
  vitest: parseVitest,
};

export function parseTestOutput(framework: TestFramework | undefined, output: string): ParsedTests {
  if (framework === undefined) return { failures: [], testCount: 0 };
  return PARSERS[framework](output.split(/\r?\n/));
}
