import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { createCapabilityHost } from "../../src/capabilities/index.ts";
import { operatorFileSchema, type OperatorFile } from "../../src/hooks/config/schema.ts";
import { packBundle } from "../../src/hooks/packages/bundle.ts";
import { FleetPoller } from "../../src/hooks/packages/fleet.ts";
import { installPackage, readLock } from "../../src/hooks/packages/install.ts";
import { nodeCapabilityIO } from "../../src/platform/node-capability-io.ts";
import { nodePackageIO } from "../../src/platform/node-package-io.ts";
import { nodeFileHost } from "../../src/platform/node.ts";
import { minisignMissing, minisignSign, newMinisignKey, type MinisignKey } from "../helpers/minisign.ts";

/** The bundle-source poller's consent policy, on a directory source: what it installs, updates, and leaves alone. */
const missing = minisignMissing();
const need = (ctx: TestContext): void => {
  if (missing) ctx.skip(missing);
};

describe("bundle sources: the consent policy", () => {
  let dir: string;
  let key: MinisignKey;
  let log: string[];
  let poller: FleetPoller;
  let operator: OperatorFile;
  const hooks = (): string => join(dir, "hooks");
  const mirror = (): string => join(dir, "mirror");
  const tree = (id: string, version: string, permissions = "{}"): Map<string, Uint8Array> =>
    new Map([
      ["handler.ts", new TextEncoder().encode("export default () => undefined;\n")],
      [
        "hook.yaml",
        new TextEncoder().encode(`id: ${id}\nversion: ${version}\nevents: [PreToolUse]\npermissions: ${permissions}\nhandler: handler.ts\n`),
      ],
    ]);
  async function publish(id: string, version: string, permissions?: string): Promise<void> {
    const file = join(mirror(), `${id}-${version}.tar.gz`);
    writeFileSync(file, await packBundle(tree(id, version, permissions), nodePackageIO));
    minisignSign(key, file);
  }
  const installed = async (): Promise<Record<string, string | null>> =>
    Object.fromEntries(Object.entries((await readLock(nodeFileHost, hooks())).packages).map(([id, entry]) => [id, entry.version]));

  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-fleet-")));
    mkdirSync(mirror());
    mkdirSync(hooks());
    if (missing) return;
    key = newMinisignKey(dir, "fleet");
    log = [];
    operator = operatorFileSchema.parse({ packages: { sources: [{ dir: mirror(), keys: [key.publicKey], accept: { read: ["${workspace}/**"] } }] } });
    poller = new FleetPoller({
      fs: nodeFileHost,
      io: nodeCapabilityIO,
      packageIO: nodePackageIO,
      capabilities: createCapabilityHost({ io: nodeCapabilityIO, env: { PATH: process.env.PATH }, home: dir, dataDir: dir }),
      operator: async () => operator,
      hooksDir: hooks(),
      statusFile: join(dir, "status.json"),
      log: (line) => log.push(line),
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("installs the newest version of each package whose grants the policy covers", async (ctx) => {
    need(ctx);
    await publish("one", "1.0.0");
    await publish("one", "1.2.0", '{ read: ["${workspace}/**"] }');
    await publish("one", "1.10.0", '{ read: ["${workspace}/**"] }');
    const [report] = await poller.pollDue(true);
    expect(report).toMatchObject({ source: mirror(), bundles: 3, installed: ["one 1.10.0"], refused: [] });
    expect(await installed()).toEqual({ one: "1.10.0" });
  });

  it("a newer version asking for more is refused (reported once); the installed one stays", async (ctx) => {
    need(ctx);
    await publish("one", "2.0.0", '{ read: ["${workspace}/**"], env: [LANG] }');
    const [first] = await poller.pollDue(true);
    expect(first?.refused).toEqual([{ file: "one-2.0.0.tar.gz", reason: expect.stringContaining("does not cover: env LANG") }]);
    await poller.pollDue(true);
    expect(log.filter((line) => line.includes("refused one-2.0.0.tar.gz"))).toHaveLength(1);
    expect(await installed()).toEqual({ one: "1.10.0" });
    // The operator widens the policy: the next poll takes it.
    operator = operatorFileSchema.parse({
      packages: { sources: [{ dir: mirror(), keys: [key.publicKey], accept: { read: ["${workspace}/**"], env: ["LANG"] } }] },
    });
    const [after] = await poller.pollDue(true);
    expect(after?.installed).toEqual(["one 2.0.0"]);
  });

  it("a bundle whose signature is published after it is installed once the signature is there", async (ctx) => {
    need(ctx);
    const file = join(mirror(), "late-1.0.0.tar.gz");
    writeFileSync(file, await packBundle(tree("late", "1.0.0"), nodePackageIO));
    const [unsigned] = await poller.pollDue(true);
    expect(unsigned?.refused).toContainEqual({ file: "late-1.0.0.tar.gz", reason: "it has no signature (a bundle source's bundles must be signed)" });
    minisignSign(key, file);
    const [signed] = await poller.pollDue(true);
    expect(signed?.installed).toEqual(["late 1.0.0"]);
  });

  it("leaves alone what a person installed, and refuses an id one of the user's hooks declares", async (ctx) => {
    need(ctx);
    await installPackage(nodeFileHost, hooks(), "mine", tree("mine", "0.1.0"), {
      version: "0.1.0",
      source: "dir:/by/hand",
      grants: [],
      signer: null,
      onError: "continue",
    });
    await publish("mine", "9.0.0");
    writeFileSync(join(hooks(), "own.yaml"), "id: taken\nevents: [PreToolUse]\nhandler: { code: 'export default () => undefined' }\n");
    await publish("taken", "1.0.0");
    const [report] = await poller.pollDue(true);
    expect(report?.refused).toContainEqual({ file: "taken-1.0.0.tar.gz", reason: `the id taken is already taken by ${hooks()}/own.yaml` });
    expect(await installed()).toEqual({ one: "2.0.0", late: "1.0.0", mine: "0.1.0" });
  });
});
