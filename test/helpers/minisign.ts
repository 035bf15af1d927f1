import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface MinisignKey {
  readonly secretKeyFile: string;
  readonly publicKeyFile: string;
  /** The base64 line: what trusted_keys holds. */
  readonly publicKey: string;
  readonly keyId: string;
}

/** Why the real minisign cannot be used here (tests skip with it), or undefined. .ci/install-tools installs it. */
export function minisignMissing(): string | undefined {
  try {
    execFileSync("minisign", ["-v"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "minisign is not installed (apt-get install minisign; .ci/install-tools does)";
  }
}

/** A password-less key pair made by minisign -G -W. */
export function newMinisignKey(dir: string, name: string): MinisignKey {
  const secretKeyFile = join(dir, `${name}.key`);
  const publicKeyFile = join(dir, `${name}.pub`);
  execFileSync("minisign", ["-G", "-W", "-f", "-p", publicKeyFile, "-s", secretKeyFile], { stdio: "ignore" });
  const [comment, publicKey] = readFileSync(publicKeyFile, "utf8").trim().split("\n") as [string, string];
  return { secretKeyFile, publicKeyFile, publicKey, keyId: /public key ([0-9A-F]{1,16})$/.exec(comment)?.[1] ?? "" };
}

/** minisign -S: `<file>.minisig` beside the file. */
export function minisignSign(key: MinisignKey, file: string, trustedComment = "hookbox test"): void {
  execFileSync("minisign", ["-S", "-s", key.secretKeyFile, "-m", file, "-t", trustedComment], { stdio: "ignore" });
}
