import { execFileSync } from "node:child_process";
import { generateKeyPairSync, sign } from "node:crypto";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const FIXTURE = resolve(import.meta.dirname, "fixtures/package-io.ts");

/**
 * The PackageIO contract (src/platform/package-io.ts) on every runtime Hookbox runs on: the same
 * BLAKE2b-512, Ed25519 answers and — what makes a bundle reproducible — the same gzip bytes.
 */
describe("PackageIO on Node, Bun and Deno", () => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const key = Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url").toString("hex");
  const message = "a bundle's bytes";
  const input = JSON.stringify({ key, message, signature: sign(null, Buffer.from(message), privateKey).toString("hex") });
  const runtimes: Record<string, string[]> = {
    node: [process.execPath, "--import", "tsx", FIXTURE, input],
    bun: [resolve(ROOT, "node_modules/.bin/bun"), FIXTURE, input],
    deno: [resolve(ROOT, "node_modules/.bin/deno"), "run", "--allow-read", "--allow-env", FIXTURE, input],
  };
  const answers = Object.fromEntries(
    Object.entries(runtimes).map(([name, [program, ...args]]) => [
      name,
      JSON.parse(
        execFileSync(program as string, args, { cwd: ROOT, encoding: "utf8", timeout: 60_000 })
          .trim()
          .split("\n")
          .pop() as string,
      ) as Record<string, unknown>,
    ]),
  );

  it.each(Object.keys(runtimes))("%s: BLAKE2b-512, Ed25519 (a tampered message and a bad key refused), a gzip bomb stopped", (name) => {
    expect(answers[name]).toMatchObject({
      blake2b512: "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923",
      verifies: true,
      tampered: false,
      wrongLength: false,
      roundTrip: 8000,
      bomb: "RangeError",
    });
  });

  it("the same gzip bytes everywhere, with a header naming no time and OS 3", () => {
    expect(answers.bun?.gzip).toBe(answers.node?.gzip);
    expect(answers.deno?.gzip).toBe(answers.node?.gzip);
    expect(String(answers.node?.gzip).slice(0, 20)).toBe("1f8b0800000000000203");
  });
});
