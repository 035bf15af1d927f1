// SHA256SUMS (the format `sha256sum -c` reads) and its minisign signature.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const SUMS_FILE = "SHA256SUMS";

export function sha256File(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** Write SHA256SUMS over every file in `dir` (sorted by name), and return its lines. */
export function writeSums(dir: string): string[] {
  const names = readdirSync(dir)
    .filter((name) => name !== SUMS_FILE && !name.startsWith(`${SUMS_FILE}.`) && statSync(join(dir, name)).isFile())
    .sort();
  const lines = names.map((name) => `${sha256File(join(dir, name))}  ${name}`);
  writeFileSync(join(dir, SUMS_FILE), `${lines.join("\n")}\n`);
  return lines;
}

/**
 * Sign SHA256SUMS with minisign (Debian's minisign package): SHA256SUMS.minisig beside it. The
 * trusted comment names the release, and is signed too. An encrypted key's password comes from
 * `password` (piped, as minisign reads it when stdin is not a terminal), else from the terminal.
 */
export function signSums(dir: string, secretKey: string, trustedComment: string, password?: string): string {
  const args = ["-S", "-s", secretKey, "-m", join(dir, SUMS_FILE), "-t", trustedComment];
  try {
    execFileSync(
      "minisign",
      args,
      password === undefined ? { stdio: ["inherit", "ignore", "inherit"] } : { input: `${password}\n`, stdio: ["pipe", "ignore", "inherit"] },
    );
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw new Error(
      missing
        ? "minisign is not installed: apt-get install minisign (or leave out --minisign-key)"
        : `minisign could not sign ${SUMS_FILE}: ${(error as Error).message}`,
    );
  }
  return join(dir, `${SUMS_FILE}.minisig`);
}
