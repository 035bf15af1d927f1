// Shared helpers for side-by-side benchmarks: interleaved rounds (A, B, A, B …) so machine noise
// hits every contender alike, percentiles, and the BENCHMARKS.md writer.
import { execSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";

export interface Contender {
  readonly name: string;
  /** One measured operation. */
  readonly run: () => Promise<unknown> | unknown;
  /** Operations per round for this contender (slow ones, like process spawns, take fewer). */
  readonly perRound?: number;
  readonly warmup?: number;
}

export interface Summary {
  readonly name: string;
  readonly samples: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly meanUs: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
}

/** Measure contenders in interleaved rounds; warmup iterations are discarded. */
export async function sideBySide(
  contenders: readonly Contender[],
  options: { rounds?: number; perRound?: number; warmup?: number } = {},
): Promise<Summary[]> {
  const rounds = options.rounds ?? 10;
  const perRound = options.perRound ?? 200;
  const warmup = options.warmup ?? 200;
  for (const contender of contenders) for (let i = 0; i < (contender.warmup ?? warmup); i++) await contender.run();
  const samples = contenders.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const [index, contender] of contenders.entries()) {
      const bucket = samples[index] as number[];
      for (let i = 0; i < (contender.perRound ?? perRound); i++) {
        const started = performance.now();
        await contender.run();
        bucket.push((performance.now() - started) * 1000);
      }
    }
  }
  return contenders.map((contender, index) => summarize(contender.name, samples[index] as number[]));
}

/** p50/p99/mean of samples in µs. */
export function summarize(name: string, samplesUs: readonly number[]): Summary {
  const sorted = [...samplesUs].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { name, samples: sorted.length, p50Us: percentile(sorted, 50), p99Us: percentile(sorted, 99), meanUs: mean };
}

/** BENCH_QUICK=1: suites shorten their runs (smoke tests; the numbers mean nothing). */
export const QUICK = process.env.BENCH_QUICK === "1";

export function verdict(ok: boolean): string {
  return ok ? "met" : "**missed**";
}

export function fmtUs(us: number): string {
  if (us >= 10_000) return `${(us / 1000).toFixed(1)} ms`;
  if (us >= 1000) return `${(us / 1000).toFixed(2)} ms`;
  return `${us.toFixed(1)} µs`;
}

export function table(rows: readonly Summary[], ratioTo?: string): string {
  const base = rows.find((r) => r.name === ratioTo);
  const head = `| contender | p50 | p99 | mean | samples |${base ? ` p50 ÷ ${base.name} |` : ""}\n|---|---:|---:|---:|---:|${base ? "---:|" : ""}`;
  const body = rows
    .map(
      (r) =>
        `| ${r.name} | ${fmtUs(r.p50Us)} | ${fmtUs(r.p99Us)} | ${fmtUs(r.meanUs)} | ${r.samples} |${base ? ` ${(r.p50Us / base.p50Us).toFixed(2)}× |` : ""}`,
    )
    .join("\n");
  return `${head}\n${body}`;
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const runtime =
    typeof (globalThis as { Bun?: { version: string } }).Bun !== "undefined"
      ? `Bun ${(globalThis as unknown as { Bun: { version: string } }).Bun.version}`
      : `Node ${process.version}`;
  let kernel = "";
  try {
    kernel = execSync("uname -sr").toString().trim();
  } catch {
    kernel = process.platform;
  }
  // The date says which code a section measured; the load says how much of the machine it had.
  const load = loadavg()[0] ?? 0;
  return `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${kernel} (load average ${load.toFixed(1)} at the start); benchmark runtime ${runtime}`;
}

const FILE = resolve(import.meta.dirname, "../BENCHMARKS.md");
const HEADER = `# Benchmarks

Every comparison below was measured side by side in one run (interleaved rounds), on the
machine named in its section: ratios are the result, absolute times drift between machines
and runs. Reproduce with \`npm run bench\` (all suites) or \`npm run bench -- <suite>\`.
`;

/** Replace (or append) one suite's section of BENCHMARKS.md, leaving the others as they are (not with BENCH_NO_WRITE=1 or BENCH_QUICK=1). */
export function writeSection(suite: string, markdown: string): void {
  if (process.env.BENCH_NO_WRITE === "1" || QUICK) return; // smoke runs never touch BENCHMARKS.md
  const start = `<!-- bench:${suite} -->`;
  const end = `<!-- /bench:${suite} -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = existsSync(FILE) ? readFileSync(FILE, "utf8") : HEADER;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  text = from >= 0 && to > from ? `${text.slice(0, from)}${block}${text.slice(to + end.length)}` : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(FILE, text);
}
