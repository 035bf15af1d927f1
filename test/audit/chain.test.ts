import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  checkChain,
  describeProblem,
  GENESIS,
  linkLines,
  linkTo as linkWith,
  recordBody,
  splitLines,
  summarizeLine,
  type LineSummary,
} from "../../src/decide/audit/chain.ts";
import { nodeFileHost } from "../../src/platform/node.ts";

const sha256 = nodeFileHost.lock.sha256;
const linkTo = (line: string | Uint8Array): string => linkWith(sha256, line);

const encoder = new TextEncoder();

/** A chained log of `n` small records, as the sink writes it. */
async function chainedLog(n: number, head = GENESIS): Promise<string> {
  const bodies = Array.from({ length: n }, (_, i) =>
    recordBody({ v: 1, kind: "decision", id: `r${i + 1}`, event_id: `e${i + 1}`, reason: `reason ${i + 1}` }),
  );
  return linkLines(sha256, bodies, head).text;
}

async function summaries(text: string, file = "log"): Promise<LineSummary[]> {
  const { lines } = splitLines(encoder.encode(text));
  return Promise.all(lines.map((line, i) => summarizeLine(sha256, file, i + 1, line)));
}

async function check(text: string) {
  const lines = await summaries(text);
  return checkChain(lines, undefined, new Map(lines.map((l) => [l.hash, { file: l.file, line: l.line }])));
}

const edit = (text: string, line: number, change: (l: string) => string): string =>
  text
    .split("\n")
    .map((l, i) => (i === line - 1 ? change(l) : l))
    .join("\n");

describe("the hash chain", () => {
  it("links each line to the exact bytes of the one before, the first to the genesis value", async () => {
    const text = await chainedLog(3);
    const lines = text.trimEnd().split("\n");
    expect(JSON.parse(lines[0] as string).prev).toBe(GENESIS);
    expect(JSON.parse(lines[1] as string).prev).toBe(linkTo(lines[0] as string));
    expect(JSON.parse(lines[2] as string).prev).toBe(linkTo(lines[1] as string));
    // prev is the last field, so a person reading the log sees the record first.
    expect(lines[0]).toMatch(/^\{"v":1,"kind":"decision".*,"prev":"sha256:0{64}"\}$/);
    const result = await check(text);
    expect(result).toMatchObject({ problems: [], chained: 3, checkedLinks: 2, origin: "genesis" });
    expect(result.head).toBe(linkTo(lines[2] as string));
  });

  it("is SHA-256 of the line's UTF-8 bytes, as any tool computes it", () => {
    const line = '{"v":1,"reason":"é ✓"}';
    expect(linkTo(line)).toBe(`sha256:${createHash("sha256").update(Buffer.from(line, "utf8")).digest("hex")}`);
  });

  it("replaces a prev the record carried: the link is the writer's to set", async () => {
    const { text } = linkLines(sha256, [recordBody({ v: 1, id: "x", prev: "sha256:forged" })], GENESIS);
    expect(text).toBe(`{"v":1,"id":"x","prev":"${GENESIS}"}\n`);
  });

  it("names the edited line when one record's reason is changed", async () => {
    const tampered = edit(await chainedLog(5), 3, (l) => l.replace("reason 3", "reason three"));
    const { problems } = await check(tampered);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: "broken_link", line: 4, previous: { line: 3 }, record: { id: "r4" } });
    expect(describeProblem(problems[0] as never)).toMatch(
      /^log line 4 \(decision, id r4\) links to sha256:[0-9a-f]{64}, but line 3 hashes to sha256:[0-9a-f]{64}: line 3 was changed after it was written, or records between line 3 and line 4 were removed$/,
    );
  });

  it("detects a removed line", async () => {
    const lines = (await chainedLog(5)).split("\n");
    lines.splice(2, 1);
    const { problems } = await check(lines.join("\n"));
    expect(problems).toMatchObject([{ kind: "broken_link", line: 3, record: { id: "r4" }, linksTo: undefined }]);
  });

  it("tells two swapped lines from a changed one", async () => {
    const lines = (await chainedLog(5)).split("\n");
    [lines[1], lines[2]] = [lines[2] as string, lines[1] as string];
    const { problems } = await check(lines.join("\n"));
    expect(problems[0]).toMatchObject({ kind: "broken_link", line: 2, record: { id: "r3" }, linksTo: { line: 3 } });
    expect(describeProblem(problems[0] as never)).toMatch(/it links to line 3 instead: records were moved or reordered/);
  });

  it("reports a line that is not JSON, and the broken link after it", async () => {
    const lines = (await chainedLog(3)).split("\n");
    lines.splice(1, 0, "not json at all");
    const { problems } = await check(lines.join("\n"));
    expect(problems.map((p) => [p.kind, p.line])).toEqual([
      ["not_json", 2],
      ["broken_link", 3],
    ]);
  });

  it("counts records written before the chain as unchained, not as tampering; one without a link later is a problem", async () => {
    const legacy = `${JSON.stringify({ v: 1, id: "old1", hook_id: "h", started_at: "2026-01-01T00:00:00.000Z" })}\n${JSON.stringify({ v: 1, id: "old2", hook_id: "h", started_at: "2026-01-02T00:00:00.000Z" })}\n`;
    const last = legacy.trimEnd().split("\n")[1] as string;
    const text = legacy + (await chainedLog(2, linkTo(last)));
    const result = await check(text);
    expect(result).toMatchObject({
      problems: [],
      chained: 2,
      checkedLinks: 2,
      origin: "unchained",
      unchained: { count: 2, lastAt: "2026-01-02T00:00:00.000Z" },
    });
    const inserted = `${text}${JSON.stringify({ v: 1, id: "late", hook_id: "h" })}\n`;
    expect((await check(inserted)).problems).toMatchObject([{ kind: "unchained", line: 5, record: { id: "late" } }]);
  });

  it("says when the oldest kept line continues a file no longer kept", async () => {
    const result = await check(await chainedLog(2, linkTo("a line rotated out long ago")));
    expect(result).toMatchObject({ problems: [], origin: "continued", checkedLinks: 1 });
  });

  it("splits bytes into lines and keeps a torn tail apart", () => {
    const { lines, torn } = splitLines(encoder.encode('{"a":1}\n{"b":2}\n{"c"'));
    expect(lines.map((l) => new TextDecoder().decode(l))).toEqual(['{"a":1}', '{"b":2}']);
    expect(new TextDecoder().decode(torn)).toBe('{"c"');
    expect(splitLines(encoder.encode("x\n")).torn).toBeUndefined();
  });

  it("hashes bytes, not their decoding: a line that is not UTF-8 still gets its own link", async () => {
    const bad = new Uint8Array([0x7b, 0xff, 0x7d]);
    const summary = summarizeLine(sha256, "log", 1, bad);
    expect(summary.json).toBe(false);
    expect(summary.hash).not.toBe(linkTo(new TextDecoder().decode(bad)));
  });
});
