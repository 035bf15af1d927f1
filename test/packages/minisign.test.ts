import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePublicKey, verifyMinisign, type PublicKey } from "../../src/hooks/packages/minisign.ts";
import { nodePackageIO } from "../../src/platform/node-package-io.ts";
import { minisignMissing, newMinisignKey, type MinisignKey } from "../helpers/minisign.ts";

/**
 * Interop with the real minisign (Debian's package): what `minisign -S` signs verifies with
 * node's Ed25519 and BLAKE2b-512, prehashed (the default) and legacy (-l); anything changed after
 * signing — the file, the trusted comment — or a key that is not trusted is refused.
 */
const missing = minisignMissing();
/** A test that needs the real minisign: skipped, with the reason, where it is not installed. */
function test(name: string, body: () => unknown): void {
  it(name, async (ctx) => {
    if (missing) return ctx.skip(missing);
    await body();
  });
}

describe("minisign signatures", () => {
  let dir: string;
  let key: MinisignKey;
  let other: MinisignKey;
  let trusted: PublicKey;
  const file = (): string => join(dir, "bundle.tar.gz");

  beforeAll(() => {
    if (missing) return;
    dir = mkdtempSync(join(tmpdir(), "hookbox-minisign-"));
    key = newMinisignKey(dir, "a");
    other = newMinisignKey(dir, "b");
    trusted = parsePublicKey(key.publicKey) as PublicKey;
    writeFileSync(file(), "some bundle bytes\n");
  });
  afterAll(() => void (dir && rmSync(dir, { recursive: true, force: true })));

  const sign = (k: MinisignKey, extra: string[] = []): string => {
    execFileSync("minisign", ["-S", "-s", k.secretKeyFile, "-m", file(), "-t", "release 1.0.0", ...extra], { stdio: "ignore" });
    return readFileSync(`${file()}.minisig`, "utf8");
  };
  const verify = (signature: string, keys: PublicKey[] = [trusted], data = readFileSync(file())) =>
    verifyMinisign(new Uint8Array(data), signature, keys, nodePackageIO);

  test("a prehashed (ED) signature verifies, with its key id and trusted comment", async () => {
    const signature = sign(key);
    expect(signature.split("\n")[1]?.startsWith("RU")).toBe(true);
    expect(await verify(signature)).toEqual({ ok: true, keyId: key.keyId, trustedComment: "release 1.0.0" });
  });

  test("a legacy (Ed, minisign -l) signature verifies", async () => {
    const signature = sign(key, ["-l"]);
    expect(signature.split("\n")[1]?.startsWith("RW")).toBe(true);
    expect((await verify(signature)).ok).toBe(true);
  });

  test("a changed file is refused", async () => {
    const signature = sign(key);
    const result = await verify(signature, [trusted], Buffer.from("some bundle bytes!\n"));
    expect(result).toMatchObject({ ok: false, reason: expect.stringContaining("was changed after it was signed") });
  });

  test("a changed trusted comment is refused", async () => {
    const lines = sign(key).split("\n");
    lines[2] = "trusted comment: release 9.9.9";
    expect(await verify(lines.join("\n"))).toMatchObject({ ok: false, reason: expect.stringContaining("trusted comment") });
  });

  test("a key that is not trusted is refused, naming both", async () => {
    const signature = sign(other);
    const result = await verify(signature);
    expect(result).toMatchObject({ ok: false, reason: expect.stringContaining(`signed by key ${other.keyId}, which is not trusted`) });
    expect(result.ok || result.reason).toContain(key.keyId);
  });

  test("the key id of a public key is the one minisign prints", () => {
    const printed = /public key ([0-9A-F]{1,16})/.exec(readFileSync(key.publicKeyFile, "utf8"))?.[1];
    expect(trusted.keyId).toBe(printed);
    expect(parsePublicKey(readFileSync(key.publicKeyFile, "utf8"))).toMatchObject({ keyId: printed });
  });

  test("junk is not a key or a signature", async () => {
    expect(parsePublicKey("hello")).toContain("not a minisign public key");
    expect(await verify("hello")).toMatchObject({ ok: false, reason: expect.stringContaining("not a minisign signature") });
  });
});
