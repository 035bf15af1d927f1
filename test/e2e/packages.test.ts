import { spawnSync } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { minisignMissing, minisignSign, newMinisignKey, type MinisignKey } from "../helpers/minisign.ts";
import { denial, git, PackageWorld } from "../helpers/packages.ts";

/**
 * Community hooks through dist/hookbox in a temp HOME: pack → minisign -S → add with the key
 * trusted → the hook runs; a tampered bundle, a wrong key and an edited installed file are each
 * refused with a clear message, and a guard then fails closed; an update that adds a run grant
 * asks again.
 */
const missing = minisignMissing();
const needMinisign = (ctx: TestContext): void => {
  if (missing) ctx.skip(missing);
};

describe("packages: pack, sign, add, verify, update (the binary)", () => {
  let world: PackageWorld;
  let key: MinisignKey;
  let stranger: MinisignKey;
  const mirror = (): string => join(world.dir, "mirror");
  const bundle = (version: string): string => join(mirror(), `guard-${version}.tar.gz`);

  beforeAll(async () => {
    world = new PackageWorld();
    if (missing) return;
    key = newMinisignKey(world.dir, "publisher");
    stranger = newMinisignKey(world.dir, "stranger");
    world.writeOperator(`packages:\n  trusted_keys: ["${key.publicKey}"]\n`);
    world.writePackage(join(world.dir, "src", "guard"), { id: "guard", version: "1.0.0", permissions: '{ read: ["${workspace}/**"] }' });
    const packed = await world.hookbox(["pack", join(world.dir, "src", "guard"), "--out", mirror()]);
    expect(packed.code, packed.stderr).toBe(0);
    minisignSign(key, bundle("1.0.0"), "guard 1.0.0");
  });
  afterAll(() => world.cleanup());

  it("pack twice, and from a fresh clone with other mtimes: identical bytes", async (ctx) => {
    needMinisign(ctx);
    const source = join(world.dir, "src", "guard");
    git(source, "init", "-q");
    git(source, "add", "-A");
    git(source, "commit", "-qm", "guard");
    await new Promise((r) => setTimeout(r, 1100));
    git(world.dir, "clone", "-q", source, join(world.dir, "clone"));
    const again = await world.hookbox(["pack", source, "--out", join(world.dir, "again"), "--json"]);
    const cloned = await world.hookbox(["pack", join(world.dir, "clone"), "--out", join(world.dir, "cloned"), "--json"]);
    expect(again.code, again.stderr).toBe(0);
    const first = readFileSync(bundle("1.0.0"));
    expect(readFileSync(join(world.dir, "again", "guard-1.0.0.tar.gz")).equals(first)).toBe(true);
    expect(readFileSync(join(world.dir, "cloned", "guard-1.0.0.tar.gz")).equals(first)).toBe(true);
    expect(JSON.parse(cloned.stdout)).toMatchObject({ id: "guard", version: "1.0.0", files: ["handler.ts", "hook.yaml"] });
  });

  it("a tampered bundle is refused before anything of it is unpacked", async (ctx) => {
    needMinisign(ctx);
    const tampered = join(world.dir, "tampered-1.0.0.tar.gz");
    const bytes = readFileSync(bundle("1.0.0"));
    bytes[bytes.length - 20] = (bytes[bytes.length - 20] as number) ^ 0xff;
    writeFileSync(tampered, bytes);
    copyFileSync(`${bundle("1.0.0")}.minisig`, `${tampered}.minisig`);
    const out = await world.hookbox(["add", tampered, "--yes", "--allow", "read ${workspace}/**"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(
      `error[signature_invalid]: ${tampered} is refused: the signature by key ${key.keyId} does not match the file: it was changed after it was signed`,
    );
  });

  it("a bundle signed by a key that is not trusted is refused, naming both keys", async (ctx) => {
    needMinisign(ctx);
    const other = join(world.dir, "other", "guard-1.0.0.tar.gz");
    await world.hookbox(["pack", join(world.dir, "src", "guard"), "--out", join(world.dir, "other")]);
    minisignSign(stranger, other);
    const out = await world.hookbox(["add", other, "--yes", "--allow", "read ${workspace}/**"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`signed by key ${stranger.keyId}, which is not trusted: the trusted keys are ${key.keyId}`);
    const verified = await world.hookbox(["verify", other]);
    expect(verified.code).toBe(1);
  });

  it("verify: the signer, the files' hash and the review", async (ctx) => {
    needMinisign(ctx);
    const out = await world.hookbox(["verify", bundle("1.0.0"), "--json"]);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({
      signer: { key_id: key.keyId, trusted_comment: "guard 1.0.0" },
      id: "guard",
      version: "1.0.0",
      integrity: expect.stringMatching(/^sha256-/),
      grants: [{ grant: "read ${workspace}/**", status: "granted" }],
    });
  });

  it("add with the key trusted: --yes needs the exact --allow; then the hook runs and hookbox.lock records it", async (ctx) => {
    needMinisign(ctx);
    const refused = await world.hookbox(["add", bundle("1.0.0"), "--yes"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("To accept what is asked, run again with:  --yes --allow 'read ${workspace}/**'");
    const noTerminal = await world.hookbox(["add", bundle("1.0.0")]);
    expect(noTerminal.stderr).toContain("there is no terminal to ask");
    const added = await world.hookbox(["add", bundle("1.0.0"), "--yes", "--allow", "read ${workspace}/**"]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain(`signed by key ${key.keyId} (trusted comment: guard 1.0.0)`);
    expect(added.stdout).toContain(`installed guard 1.0.0 in ${world.userHooks}/guard`);
    const lock = JSON.parse(readFileSync(join(world.userHooks, "hookbox.lock"), "utf8")) as { packages: Record<string, Record<string, unknown>> };
    expect(lock.packages.guard).toMatchObject({
      dir: "guard",
      version: "1.0.0",
      source: `bundle:${bundle("1.0.0")}`,
      grants: ["read ${workspace}/**"],
      signer: { key_id: key.keyId },
      on_error: "deny",
      integrity: expect.stringMatching(/^sha256-/),
    });
    expect(Object.keys(lock.packages.guard?.files as object)).toEqual(["handler.ts", "hook.yaml"]);
    expect(denial((await world.writeEnv()).json)).toBe("guard guards .env");
  });

  it("update to a version that adds a run grant asks again: --yes without --allow for it refuses; with it, updates", async (ctx) => {
    needMinisign(ctx);
    world.writePackage(join(world.dir, "src", "guard"), {
      id: "guard",
      version: "1.1.0",
      permissions: '{ read: ["${workspace}/**"], run: [{ cmd: git, args: [status, "--short"] }] }',
    });
    await world.hookbox(["pack", join(world.dir, "src", "guard"), "--out", mirror()]);
    minisignSign(key, bundle("1.1.0"));
    const refused = await world.hookbox(["update", "guard", "--yes", "--allow", "read ${workspace}/**"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("+ run git status --short  (new: needs your consent)");
    expect(refused.stderr).toContain(
      "not accepted: run git status --short. To accept what is asked, run again with:  --yes --allow 'run git status --short'",
    );
    expect(JSON.parse(readFileSync(join(world.userHooks, "hookbox.lock"), "utf8")).packages.guard.version).toBe("1.0.0");
    const updated = await world.hookbox(["update", "guard", "--yes", "--allow", "run git status --short"]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain("updated guard from 1.0.0 to 1.1.0");
    expect((await world.hookbox(["update", "guard"])).stdout).toContain("guard: up to date (1.1.0)");
  });

  it("a correctly signed older release renamed as a newer one is refused by update; the installed version stays", async (ctx) => {
    needMinisign(ctx);
    // Whoever can write beside the bundles offers guard 1.0.0, signature and all, as guard-1.2.0.
    copyFileSync(bundle("1.0.0"), bundle("1.2.0"));
    copyFileSync(`${bundle("1.0.0")}.minisig`, `${bundle("1.2.0")}.minisig`);
    try {
      const verified = await world.hookbox(["verify", bundle("1.2.0")]);
      expect(verified.code, "the signature itself is valid").toBe(0);
      const out = await world.hookbox(["update", "guard", "--yes", "--allow", "read ${workspace}/**", "--allow", "run git status --short"]);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(`error[conflict]: ${bundle("1.2.0")} is refused: it holds guard 1.0.0, not what its name says (guard 1.2.0)`);
      expect(JSON.parse(readFileSync(join(world.userHooks, "hookbox.lock"), "utf8")).packages.guard.version).toBe("1.1.0");
      // Not even --allow-downgrade takes a bundle that lies about its version.
      const forced = await world.hookbox(["update", "guard", "--allow-downgrade", "--yes"]);
      expect(forced.code).toBe(1);
      expect(forced.stderr).toContain("not what its name says");
    } finally {
      rmSync(bundle("1.2.0"));
      rmSync(`${bundle("1.2.0")}.minisig`);
    }
  });

  it("add of an older version over a newer one is refused unless --allow-downgrade", async (ctx) => {
    needMinisign(ctx);
    const refused = await world.hookbox(["add", bundle("1.0.0"), "--yes", "--allow", "read ${workspace}/**"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `error[conflict]: guard 1.0.0 (${bundle("1.0.0")}) is older than the installed 1.1.0: refusing to downgrade (an older release may lack fixes the installed one has). If you mean it, run again with --allow-downgrade`,
    );
    const downgraded = await world.hookbox(["add", bundle("1.0.0"), "--yes", "--allow-downgrade"]);
    expect(downgraded.code, downgraded.stderr).toBe(0);
    expect(downgraded.stdout).toContain("downgraded guard from 1.1.0 to 1.0.0");
    const back = await world.hookbox(["add", bundle("1.1.0"), "--yes", "--allow", "run git status --short"]);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain("updated guard from 1.0.0 to 1.1.0");
  });

  it("an edited installed file is refused at load, saying what changed, and the guard fails closed", async (ctx) => {
    needMinisign(ctx);
    appendFileSync(join(world.userHooks, "guard", "handler.ts"), "// edited\n");
    const { json } = await world.claude({ tool_name: "Read", tool_input: { file_path: join(world.project, "README.md") } });
    expect(denial(json)).toContain(
      `the installed package guard no longer matches ${world.userHooks}/hookbox.lock (handler.ts changed since it was installed from bundle:${bundle("1.1.0")})`,
    );
    const validate = await world.hookbox(["validate"]);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain("handler.ts changed since it was installed");
    // Reinstalling from the source makes it whole again.
    const fixed = await world.hookbox(["add", bundle("1.1.0"), "--yes"]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(denial((await world.writeEnv()).json)).toBe("guard guards .env");
  });

  it("remove: the files and the lock entry", async (ctx) => {
    needMinisign(ctx);
    const out = await world.hookbox(["remove", "guard"]);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(world.userHooks, "hookbox.lock"), "utf8")).packages).toEqual({});
    expect(denial((await world.writeEnv()).json)).toBeUndefined();
  });

  it("require_signatures refuses an unsigned folder", async (ctx) => {
    needMinisign(ctx);
    world.writeOperator(`packages:\n  trusted_keys: ["${key.publicKey}"]\n  require_signatures: true\n`);
    const out = await world.hookbox(["add", join(world.dir, "src", "guard"), "--yes", "--allow", "read ${workspace}/**"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("packages.require_signatures is on in hookbox.yaml");
    world.writeOperator(`packages:\n  trusted_keys: ["${key.publicKey}"]\n`);
  });
});

describe("the review is the same in add, list, validate and doctor (the binary)", () => {
  let world: PackageWorld;
  beforeAll(() => {
    world = new PackageWorld();
  });
  afterAll(() => world.cleanup());

  it("a hook asking for ${home}/.ssh/** is refused by the default ceiling, everywhere", async () => {
    const dir = world.writePackage(join(world.dir, "peek"), {
      id: "peek",
      version: "1.0.0",
      permissions: '{ read: ["${home}/.ssh/**"] }',
      onError: "continue",
    });
    // A line in plain words, then the grant grouped by kind: the grant whole (what --allow names), what it does, why it is refused, the YAML that would allow it.
    const summary = /\n {2,}here: decides from the event alone \(no files, programs or network\)\n {2,}refused here: reads ~\/\.ssh\/\n/;
    const words = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&").replace(/ /g, "\\s+");
    const review = new RegExp(
      [
        "\\n( +)Files",
        "\\1 {2}REFUSED {2}read \\$\\{home\\}/\\.ssh/\\*\\*",
        "\\1 {11}read any file under \\$\\{home\\}/\\.ssh in your home directory",
        `\\1 {11}${words("why: refused by the default read ceiling: by default hooks read only ${workspace}/** and ${home}/.config/hookbox/**")}`,
        "\\1 {11}to allow it: the operator can approve it for this hook in hookbox\\.yaml:",
        "\\1 {13}hooks:",
        "\\1 {15}peek:",
        "\\1 {17}permissions:",
        '\\1 {19}read: \\["\\$\\{home\\}/\\.ssh/\\*\\*"\\]\\n',
      ].join("\\n"),
    );
    const added = await world.hookbox(["add", dir, "--yes", "--allow", "read ${home}/.ssh/**"]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toMatch(summary);
    expect(added.stderr).toMatch(review);
    // Before accepting: what the refusal means once it is installed.
    expect(added.stderr.replace(/\s+/g, " ")).toContain(
      "What will not work: peek asks for grants refused here (reads ~/.ssh/), and installing it does not grant them. Its calls that need them fail inside the hook: it may handle that itself (its README says how); if it does not, the run fails and on_error: continue lets the agent's action through, unchecked by it.",
    );
    const list = await world.hookbox(["list"]);
    expect(list.stdout).toMatch(summary);
    expect(list.stdout).toMatch(review);
    const validate = await world.hookbox(["validate"]);
    expect(validate.code).toBe(0);
    expect(validate.stderr).toMatch(summary);
    expect(validate.stderr).toMatch(review);
    expect(validate.stdout).toContain("1 hook does not get all the grants declared");
    const doctor = await world.hookbox(["doctor"]);
    expect(doctor.stdout).toMatch(summary);
    expect(doctor.stdout).toMatch(review);
    // The review is wrapped at 100 columns (list's own hook lines are not the review).
    for (const out of [added.stderr, list.stdout, validate.stderr, doctor.stdout])
      for (const text of (out.match(review)?.[0] ?? "").split("\n")) expect(text.length, text).toBeLessThanOrEqual(100);
    const json = JSON.parse((await world.hookbox(["list", "--json"])).stdout) as { hooks: { PreToolUse: { id: string; grants: unknown[] }[] } };
    expect(json.hooks.PreToolUse.find((hook) => hook.id === "peek")?.grants).toEqual([
      expect.objectContaining({
        grant: "read ${home}/.ssh/**",
        status: "refused",
        allow: expect.stringContaining('hooks: { peek: { permissions: { read: ["${home}/.ssh/**"] } } }'),
      }),
    ]);
  });
});

describe("packages from a git repository (the binary)", () => {
  let world: PackageWorld;
  beforeAll(() => {
    world = new PackageWorld();
  });
  afterAll(() => world.cleanup());

  it("cloned hardened at a ref: a symbolic link in it arrives as a plain file; other protocols are refused", async () => {
    const repo = world.writePackage(join(world.dir, "repo"), { id: "from-git", version: "0.1.0" });
    symlinkSync("/etc/passwd", join(repo, "link"));
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "v0.1.0");
    git(repo, "tag", "v0.1.0");
    const added = await world.hookbox(["add", `git+${repo}#v0.1.0`, "--yes"]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toMatch(/from-git 0\.1\.0 from git:.*#v0\.1\.0 \(commit [0-9a-f]{40}\)/);
    const lock = JSON.parse(readFileSync(join(world.userHooks, "hookbox.lock"), "utf8")) as {
      packages: Record<string, { source: string; files: Record<string, string> }>;
    };
    expect(lock.packages["from-git"]?.source).toBe(`git:${repo}#v0.1.0`);
    expect(Object.keys(lock.packages["from-git"]?.files ?? {})).toEqual(["handler.ts", "hook.yaml", "link"]);
    expect(lstatSync(join(world.userHooks, "from-git", "link")).isFile()).toBe(true);
    expect(readFileSync(join(world.userHooks, "from-git", "link"), "utf8")).toBe("/etc/passwd");
    expect(denial((await world.writeEnv()).json)).toBe("from-git guards .env");
    for (const source of ["git+ssh://example.com/x.git", "git+ext::sh -c id", "git+git://example.com/x"]) {
      const refused = await world.hookbox(["add", source, "--yes"]);
      expect(refused.code, source).toBe(2);
      expect(refused.stderr).toContain("only https:// and local repositories are cloned");
    }
  });
});

describe("consent at a terminal (the binary under script(1))", () => {
  let world: PackageWorld;
  beforeAll(() => {
    world = new PackageWorld();
  });
  afterAll(() => world.cleanup());

  /** `hookbox add` with a pseudo-terminal for stdin, answering `answer` to its question. */
  const atTerminal = (source: string, answer: string) =>
    spawnSync("script", ["-qec", `${BUILT_BINARY} add ${source}`, "/dev/null"], {
      cwd: world.project,
      env: world.env(),
      input: `${answer}\n`,
      encoding: "utf8",
      timeout: 60_000,
    });

  it("the question comes after the review; y installs, anything else changes nothing", (ctx) => {
    if (spawnSync("script", ["--version"]).status !== 0) return ctx.skip("script(1) is not installed (util-linux; .ci/install-tools installs it)");
    const dir = world.writePackage(join(world.dir, "asked"), { id: "asked", version: "1.0.0", permissions: '{ read: ["${workspace}/**"] }' });
    const no = atTerminal(dir, "n");
    expect(no.stdout).toMatch(
      /granted {2}read \$\{workspace\}\/\*\*[\s\S]*Install asked into .* with these grants\? \[y\/N\][\s\S]*nothing was changed \(not accepted\)/,
    );
    expect(existsSync(join(world.userHooks, "asked"))).toBe(false);
    const yes = atTerminal(dir, "y");
    expect(yes.stdout).toContain("installed asked 1.0.0");
    expect(existsSync(join(world.userHooks, "asked", "hook.yaml"))).toBe(true);
  });
});
