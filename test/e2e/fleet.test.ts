import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { DaemonProcess } from "../helpers/daemon.ts";
import { minisignMissing, minisignSign, newMinisignKey, type MinisignKey } from "../helpers/minisign.ts";
import { denial, PackageWorld } from "../helpers/packages.ts";

/**
 * A fleet's bundle source on infrastructure a team already has: any static file server. The
 * daemon polls it (conditional requests), installs the signed bundles its consent policy covers,
 * picks up a new one within a poll interval, and refuses (and reports) one whose signature does
 * not verify or that asks for more than the policy accepts.
 */
const missing = minisignMissing();
const POLL_SECONDS = 2;

/** A static file server with ETags, counting the requests answered 304. */
function staticServer(root: string): Promise<{ server: Server; port: number; notModified: () => number }> {
  let notModified = 0;
  const server = createServer((request, response) => {
    const path = join(root, decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    if (!path.startsWith(root) || !existsSync(path)) {
      response.writeHead(404).end();
      return;
    }
    const body = readFileSync(path);
    const etag = `"${createHash("sha1").update(body).digest("hex")}"`;
    if (request.headers["if-none-match"] === etag) {
      notModified++;
      response.writeHead(304, { etag }).end();
      return;
    }
    response.writeHead(200, { etag, "content-length": body.length }).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as AddressInfo).port, notModified: () => notModified })),
  );
}

interface Status {
  sources: { installed: string[]; refused: { file: string; reason: string }[] }[];
}

describe("a bundle source polled by the daemon (the binary, a local static server)", () => {
  let world: PackageWorld;
  let key: MinisignKey;
  let stranger: MinisignKey;
  let http: Awaited<ReturnType<typeof staticServer>>;
  let daemon: DaemonProcess;
  const mirror = (): string => join(world.dir, "www", "mirror");
  const statusFile = (): string => join(world.home, ".local/share/hookbox/packages/sources.json");
  const lock = (): Record<string, { version: string; source: string }> =>
    existsSync(join(world.userHooks, "hookbox.lock"))
      ? (JSON.parse(readFileSync(join(world.userHooks, "hookbox.lock"), "utf8")) as { packages: Record<string, { version: string; source: string }> })
          .packages
      : {};

  async function publish(id: string, signer: MinisignKey, permissions = '{ read: ["${workspace}/**"] }'): Promise<void> {
    world.writePackage(join(world.dir, "src", id), { id, version: "1.0.0", permissions });
    const out = await world.hookbox(["pack", join(world.dir, "src", id), "--out", mirror(), "--index"]);
    expect(out.code, out.stderr).toBe(0);
    minisignSign(signer, join(mirror(), `${id}-1.0.0.tar.gz`));
  }

  async function until<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms; daemon log:\n${daemon.stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    world = new PackageWorld();
    if (missing) return;
    key = newMinisignKey(world.dir, "fleet");
    stranger = newMinisignKey(world.dir, "stranger");
    mkdirSync(mirror(), { recursive: true });
    await publish("alpha", key);
    await publish("beta", key);
    http = await staticServer(join(world.dir, "www"));
    world.writeOperator(
      `packages:\n  sources:\n    - url: http://127.0.0.1:${http.port}/mirror/\n      keys: ["${key.publicKey}"]\n      poll_seconds: ${POLL_SECONDS}\n      accept: { read: ["\${workspace}/**"] }\n`,
    );
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"], {}, { defaultHooks: true });
  });
  afterAll(async () => {
    await daemon?.stop();
    http?.server.close();
    world.cleanup();
  });

  it("installs the two signed bundles it lists, and their hooks run", async (ctx) => {
    if (missing) return ctx.skip(missing);
    await until("alpha and beta installed", () => (lock().alpha && lock().beta ? true : undefined), 20_000);
    expect(lock().alpha).toMatchObject({ version: "1.0.0", source: `source:http://127.0.0.1:${http.port}/mirror/` });
    expect(denial((await world.writeEnv()).json)).toBe("alpha guards .env");
    expect(daemon.stderr).toMatch(/installed alpha 1\.0\.0 \(signed by [0-9A-F]+\)/);
  });

  it("a third bundle appearing is installed by the first poll after it appears; the unchanged index is answered 304", async (ctx) => {
    if (missing) return ctx.skip(missing);
    await until("a conditional poll", () => (http.notModified() > 0 ? true : undefined), 3 * POLL_SECONDS * 1000);
    await publish("gamma", key);
    const published = new Date();
    // The first poll that started after the bundle was there: it installed gamma.
    const report = await until(
      "a poll after gamma appeared",
      () => {
        const read = existsSync(statusFile())
          ? (JSON.parse(readFileSync(statusFile(), "utf8")) as { sources: { polled_at: string; installed: string[] }[] })
          : undefined;
        const latest = read?.sources[0];
        return latest && new Date(latest.polled_at) > published ? latest : undefined;
      },
      3 * POLL_SECONDS * 1000,
    );
    expect(report.installed).toEqual(["gamma 1.0.0"]);
    expect(lock().gamma).toMatchObject({ version: "1.0.0" });
  });

  it("a bundle with a bad signature, and one asking for more than the policy accepts, are refused and reported", async (ctx) => {
    if (missing) return ctx.skip(missing);
    await publish("delta", stranger);
    await publish("epsilon", key, '{ read: ["${workspace}/**"], run: [{ cmd: git, args: [status] }] }');
    const status = await until(
      "delta and epsilon refused",
      () => {
        const read = existsSync(statusFile()) ? (JSON.parse(readFileSync(statusFile(), "utf8")) as Status) : undefined;
        const refused = read?.sources[0]?.refused ?? [];
        return refused.length >= 2 ? refused : undefined;
      },
      3 * POLL_SECONDS * 1000 + 5000,
    );
    expect(status).toEqual(
      expect.arrayContaining([
        { file: "delta-1.0.0.tar.gz", reason: expect.stringContaining(`signed by key ${stranger.keyId}, which is not trusted`) },
        { file: "epsilon-1.0.0.tar.gz", reason: expect.stringContaining("does not cover: run git status") },
      ]),
    );
    expect(lock().delta).toBeUndefined();
    expect(lock().epsilon).toBeUndefined();
    expect(daemon.stderr).toContain("refused delta-1.0.0.tar.gz: signed by key");
    // Reported once, not at every poll.
    await new Promise((r) => setTimeout(r, 2 * POLL_SECONDS * 1000));
    expect(daemon.stderr.split("refused delta-1.0.0.tar.gz").length - 1).toBe(1);
  });
});
