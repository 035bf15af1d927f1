import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join, resolve } from "node:path";
import fc from "fast-check";

/**
 * Shared generators for the fuzz suites. Iterations come from FUZZ_RUNS: small by default (CI),
 * large with `npm run fuzz`. A failure prints fast-check's seed and path: rerun it with
 * FUZZ_SEED=<seed> (and FUZZ_PATH=<path> for the exact case; FUZZ_LOG=<file> records every HTTP exchange).
 */
export const FUZZ_RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 40));

/** A test timeout that grows with the iterations (vitest's default of 60 s is for the CI counts). */
export const FUZZ_TIMEOUT_MS = 60_000 + FUZZ_RUNS * 200;

export function fuzzParameters(runs = FUZZ_RUNS): fc.Parameters<unknown> {
  const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
  return {
    numRuns: runs,
    ...(seed === undefined ? {} : { seed }),
    ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
    endOnFailure: true,
  };
}

/** Strings an attacker would try first, and plain random ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "__proto__",
      "constructor",
      "prototype",
      "toString",
      "hasOwnProperty",
      "../../../../etc/passwd",
      "/proc/self/environ",
      "\u0000",
      "\ud800",
      "\udfff\ud800",
      "\u202e",
      "\u001b[2J",
      "${workspace}",
      "PreToolUse",
      "Bash",
      "*",
      "**",
      "-c",
      "--upload-pack=sh",
      "C:\\Windows\\System32",
      "1e400",
      "-0",
      "NaN",
      "",
      " ",
      "null",
      "x".repeat(5000),
    ),
  },
);

/** JSON values with hostile keys and strings, nested a little. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    hostileString,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(hostileString, tie("value"), { maxKeys: 6 }),
  ),
})).value;

/** Objects nested `depth` deep, as JSON text (the parser's and the walkers' depth limits). */
export const deepJsonText: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 30, max: 5000 }), fc.constantFrom("[", '{"a":'))
  .map(([depth, open]) => open.repeat(depth) + "1" + (open === "[" ? "]" : "}").repeat(depth));

/** Apply random edits to a realistic payload: replace, delete or add fields, at the top or one level down. */
export function mutated(seeds: readonly Record<string, unknown>[]): fc.Arbitrary<Record<string, unknown>> {
  const edit = fc.record({ op: fc.constantFrom("set", "delete", "add", "nested"), pick: fc.nat(), key: hostileString, value: hostileJson });
  return fc.tuple(fc.constantFrom(...seeds), fc.array(edit, { minLength: 1, maxLength: 4 })).map(([seed, edits]) => {
    const copy = JSON.parse(JSON.stringify(seed)) as Record<string, unknown>;
    for (const { op, pick, key, value } of edits) {
      const keys = Object.keys(copy);
      const existing = keys.length ? (keys[pick % keys.length] as string) : key;
      if (op === "set") copy[existing] = value;
      else if (op === "delete") delete copy[existing];
      else if (op === "add") Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
      else {
        const inner = copy[existing];
        if (inner && typeof inner === "object" && !Array.isArray(inner))
          Object.defineProperty(inner, key, { value, enumerable: true, writable: true, configurable: true });
        else copy[existing] = { [key]: value };
      }
    }
    return copy;
  });
}

const ROOT = resolve(import.meta.dirname, "../..");

/** Real and research payloads of one agent, unwrapped: the seeds mutations start from. */
export function agentSamples(agent: string): Record<string, unknown>[] {
  const samples: Record<string, unknown>[] = [];
  const sampleDir = join(ROOT, "test/contracts/samples", agent);
  for (const name of safeList(sampleDir).filter((n) => n.endsWith(".json"))) {
    const parsed = JSON.parse(readFileSync(join(sampleDir, name), "utf8")) as { payload?: Record<string, unknown> };
    if (parsed.payload && typeof parsed.payload === "object") samples.push(parsed.payload);
  }
  const fixtureDir = join(ROOT, "test/fixtures/agents", agent === "claude" ? "claude-code" : agent === "gemini" ? "gemini-cli" : "-none-");
  for (const name of safeList(fixtureDir)
    .filter((n) => /^[A-Z]\w+-\d+\.json$/.test(n))
    .slice(0, 60)) {
    samples.push(JSON.parse(readFileSync(join(fixtureDir, name), "utf8")) as Record<string, unknown>);
  }
  return samples;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Percent-encode any string byte by byte (lone surrogates included, which encodeURIComponent refuses). */
export function pctEncode(text: string): string {
  return [...Buffer.from(text, "utf8")]
    .map((b) => (/[A-Za-z0-9._~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`))
    .join("");
}

export interface RawReply {
  readonly status: number;
  readonly text: string;
}

/** One request over the unix socket with a body of any bytes; rejects when no answer came within `timeoutMs` (a hang). */
export function rawCall(
  socket: string,
  method: string,
  path: string,
  body: string | Uint8Array | undefined,
  headers: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<RawReply> {
  // An explicit Content-Length: for GET, DELETE and OPTIONS Node would send the bytes unframed
  // (no length, no chunking), and they would be read as the start of the next request.
  const bytes = body === undefined ? undefined : typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
  const framing = bytes === undefined ? {} : { "content-length": String(bytes.length) };
  return new Promise((resolvePromise, reject) => {
    const req = request({ socketPath: socket, method, path, headers: { "content-type": "application/json", ...framing, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolvePromise({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer to ${method} ${path.slice(0, 100)} within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(bytes);
  });
}
