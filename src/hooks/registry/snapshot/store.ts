import type { DigestHost, FileHost } from "../../../platform/index.ts";

export type StoreFiles = Pick<FileHost, "readText" | "writeTextAtomic" | "mkdirp" | "mode">;

/**
 * Files Hookbox wrote itself and will only read back as it wrote them: each is its payload
 * behind an HMAC-SHA-256 keyed with a random per-user key (`<dir>/key`, 0600, in a 0700
 * directory). A file that was truncated, corrupted, edited by hand or copied from another
 * user's or machine's cache fails the check and is treated as absent. What the key cannot stop:
 * a process that can both read the key and write the cache as this user — which can as well
 * rewrite the hooks and the operator file themselves (SECURITY.md, "The snapshot cache").
 */
export class AuthenticatedStore {
  private key: Promise<string | undefined> | undefined;

  constructor(
    private readonly fs: StoreFiles,
    private readonly digest: DigestHost,
    readonly dir: string,
  ) {}

  /** The payload stored under `name`, when it is there and authentic; undefined otherwise. */
  async read(name: string): Promise<string | undefined> {
    const key = await this.keyText(false);
    if (!key) return undefined;
    const path = `${this.dir}/${name}`;
    // A file others could have written is not ours to trust.
    const mode = await this.fs.mode(path).catch(() => undefined);
    if (mode === undefined || (mode & 0o022) !== 0) return undefined;
    const text = await this.fs.readText(path).catch(() => undefined);
    if (text === undefined) return undefined;
    const newline = text.indexOf("\n");
    if (newline !== 64) return undefined;
    const payload = text.slice(newline + 1);
    const mac = await this.digest.hmacSha256Hex(key, payload);
    return (await this.digest.equalHex(mac, text.slice(0, newline))) ? payload : undefined;
  }

  async write(name: string, payload: string): Promise<void> {
    const key = await this.keyText(true);
    if (!key) return;
    await this.fs.writeTextAtomic(`${this.dir}/${name}`, `${await this.digest.hmacSha256Hex(key, payload)}\n${payload}`, 0o600);
  }

  /** The key, created (once, racing writers settle on one) when `create` and there is none. */
  private keyText(create: boolean): Promise<string | undefined> {
    const cached = this.key;
    if (cached) return cached.then((key) => key ?? (create ? this.createKey() : undefined));
    this.key = this.readKey().then((key) => key ?? (create ? this.createKey() : undefined));
    return this.key;
  }

  private async readKey(): Promise<string | undefined> {
    const path = `${this.dir}/key`;
    const mode = await this.fs.mode(path).catch(() => undefined);
    if (mode === undefined || (mode & 0o077) !== 0) return undefined;
    const key = (await this.fs.readText(path).catch(() => "")).trim();
    return /^[0-9a-f]{64}$/.test(key) ? key : undefined;
  }

  private async createKey(): Promise<string | undefined> {
    await this.fs.mkdirp(this.dir, 0o700, true);
    await this.fs.writeTextAtomic(`${this.dir}/key`, `${await this.digest.randomHex(32)}\n`, 0o600);
    // Whoever renamed last won: everyone uses that one.
    const key = await this.readKey();
    this.key = Promise.resolve(key);
    return key;
  }
}
