import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { signSums, writeSums } from "../../scripts/release/sums.ts";
import { minisignMissing } from "../helpers/minisign.ts";

const dir = mkdtempSync(join(tmpdir(), "hookbox-sums-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const noMinisign = minisignMissing();

describe("SHA256SUMS", () => {
  it("lists every file by name with its SHA-256, as sha256sum -c checks it", () => {
    writeFileSync(join(dir, "hookbox-linux-x64"), "binary");
    writeFileSync(join(dir, "hookbox-windows-x64.exe"), "other");
    const lines = writeSums(dir);
    const coreutils = (name: string): string => execFileSync("sha256sum", [name], { cwd: dir, encoding: "utf8" }).trim();
    expect(lines).toEqual([coreutils("hookbox-linux-x64"), coreutils("hookbox-windows-x64.exe")]);
    expect(spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: dir }).status).toBe(0);
    writeFileSync(join(dir, "hookbox-linux-x64"), "tampered");
    expect(spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: dir }).status).not.toBe(0);
    writeSums(dir);
  });

  it.for([
    ["an unencrypted key", undefined],
    ["a password-protected key, the password piped", "correct horse"],
  ] as const)("minisign signs it with %s; minisign -V verifies it and its trusted comment", ([, password], ctx) => {
    if (noMinisign) return ctx.skip(noMinisign);
    const key = join(dir, `key-${password ? "protected" : "open"}`);
    execFileSync("minisign", ["-G", "-f", ...(password ? [] : ["-W"]), "-p", `${key}.pub`, "-s", `${key}.key`], {
      input: password ? `${password}\n${password}\n` : "",
      stdio: ["pipe", "ignore", "ignore"],
    });
    const signature = signSums(dir, `${key}.key`, "hookbox 0123abc 2026-01-01T00:00:00Z", password);
    expect(signature).toBe(join(dir, "SHA256SUMS.minisig"));
    const verified = execFileSync("minisign", ["-V", "-m", join(dir, "SHA256SUMS"), "-p", `${key}.pub`], { encoding: "utf8" });
    expect(verified).toContain("Trusted comment: hookbox 0123abc 2026-01-01T00:00:00Z");
  });
});
