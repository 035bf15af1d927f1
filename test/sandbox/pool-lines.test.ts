import { describe, expect, it } from "vitest";
import { LineSplitter, Tail } from "../../src/platform/lines.ts";

/** The worker pipe's framing (src/platform/lines.ts): one protocol message per line. */
describe("LineSplitter", () => {
  it("splits across chunk boundaries, skips empty lines, keeps a partial line for later", () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((line) => lines.push(line));
    for (const chunk of ["a", "b\nc", "d\n\n", "\ne", "f", "\ng\nh"]) splitter.push(chunk);
    expect(lines).toEqual(["ab", "cd", "ef", "g"]);
    splitter.push("\n");
    expect(lines).toEqual(["ab", "cd", "ef", "g", "h"]);
  });

  it("decodes UTF-8 split inside a character", () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((line) => lines.push(line));
    const bytes = new TextEncoder().encode("héllo €\n");
    for (const byte of bytes) splitter.push(Uint8Array.of(byte));
    expect(lines).toEqual(["héllo €"]);
  });

  // A 16 MiB file of NUL bytes is 96 MB of JSON on the pipe; the splitter used to re-copy and
  // re-scan the buffered line on every 64 KiB chunk (quadratic: minutes for this stream).
  it("is linear: a 100 MB line in 64 KiB chunks, then many small lines, in well under the old cost", () => {
    const chunkBytes = 64 * 1024;
    const chunk = new TextEncoder().encode("x".repeat(chunkBytes));
    const chunks = Math.ceil((100 * 1024 * 1024) / chunkBytes);
    const lengths: number[] = [];
    let sample = "";
    const splitter = new LineSplitter((line) => {
      lengths.push(line.length);
      if (!sample) sample = line.slice(0, 3) + line.slice(-3);
    });
    const started = performance.now();
    for (let i = 0; i < chunks; i++) splitter.push(chunk);
    splitter.push(new TextEncoder().encode(`end\n${"small line\n".repeat(100_000)}`));
    const elapsedMs = performance.now() - started;
    expect(lengths[0]).toBe(chunks * chunkBytes + 3);
    expect(sample).toBe("xxxend");
    expect(lengths).toHaveLength(100_001);
    expect(lengths.slice(1).every((n) => n === "small line".length)).toBe(true);
    // Linear work here is ~0.2 s; the quadratic splitter took minutes. Generous for a busy machine.
    expect(elapsedMs).toBeLessThan(10_000);
  });
});

describe("Tail", () => {
  it("keeps the last max characters, however large the chunk", () => {
    const tail = new Tail(8);
    tail.push("abc");
    tail.push(new TextEncoder().encode("defghijkl"));
    expect(tail.toString()).toBe("efghijkl");
    tail.push("x".repeat(1000) + "END");
    expect(tail.toString()).toBe("xxxxxEND");
  });
});
