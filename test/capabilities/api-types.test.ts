import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileHandler } from "../../sandbox/index.ts";
import { handlerDeclarations } from "../../src/hooks/builtin/index.ts";
import { HOOK_API_DTS, HOOK_API_METHODS } from "../../src/capabilities/index.ts";
import type { CliContext } from "../../src/cli/context.ts";
import { registerTypes } from "../../src/cli/types.ts";
import { removeDir, tempDir } from "./helpers.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** A handler that uses every method; @ts-expect-error lines prove the types are really checked. */
const SAMPLE = `import type { Hook as ImportedHook } from "hookbox";

export default async function handler(event: HookEvent, hook: Hook): Promise<HookResult> {
  const same: ImportedHook = hook;
  const text: string = await same.readFile("a.txt", { maxBytes: 1024 });
  const files: string[] = await hook.listFiles("src", { recursive: true, extensions: [".ts"], maxFiles: 10, hidden: true });
  const listed = await hook.listFiles("src", { details: true });
  const sizes: number = listed.reduce((sum, file) => sum + file.size + file.mtime, 0) + listed.map((file) => file.path).length;
  const delivery = await hook.notify("tests failed", { title: "CI", level: "error" });
  const sent: number = delivery.sent + delivery.failed.length + sizes;
  const stepOut: unknown = event.steps?.[0]?.stdout;
  const ran = await hook.run("git", ["status", "--porcelain"], { cwd: "src", timeoutMs: 200, stdin: "x" });
  const code: number = ran.exitCode;
  const out: string = ran.stdout + ran.stderr + String(ran.timedOut) + String(ran.truncated);
  const diff: string = (await hook.gitDiff()) + (await hook.gitDiff("HEAD")) + (await hook.fileDiff("a.txt"));
  const tests = await hook.runTests("pytest -q", { framework: "pytest", timeoutMs: 60000 });
  const tests2 = await hook.runTests(["vitest", "run"]);
  const failures: readonly string[] = tests.failures;
  const count: number = tests.testCount + tests2.exitCode + (tests.passed ? 1 : 0);
  const response = await hook.http.get("https://example.com/", { timeoutMs: 1000 });
  const status: number = response.status;
  const body: string = response.body + (response.headers["content-type"] ?? "");
  const home: string | undefined = await hook.env("HOME");
  await hook.injectContext("context", { role: "user" });
  await hook.store.set("k", { n: 1, list: [1, "a", null] });
  const stored = await hook.store.get("k");
  const existed: boolean = await hook.store.delete("k");
  hook.log("info", "a line");
  console.log(hook.id, hook.config, event.event_type, event.tool_name, event.cwd);
  try {
    await hook.readFile("/etc/passwd");
  } catch (error) {
    if (error instanceof PermissionDenied) hook.log("warn", error.message + error.code);
    else if (error instanceof HookboxError) hook.log("error", String(error.code));
  }
  // @ts-expect-error paths are strings
  await hook.readFile(42);
  // @ts-expect-error run takes argv, never a shell string
  await hook.run("git", "status");
  // @ts-expect-error unknown framework
  await hook.runTests("x", { framework: "mocha" });
  // @ts-expect-error store values are JSON
  await hook.store.set("k", () => 1);
  // @ts-expect-error notify levels are info, warning, error
  await hook.notify("x", { level: "debug" });
  // @ts-expect-error there is no writeFile
  await hook.writeFile("x", "y");
  const result: HookResult = {
    action: "inject_context",
    context_injection: text + files.join() + out + diff + failures.join() + String(code + count + status) + body + home + JSON.stringify(stored) + existed + sent + String(stepOut),
    context_injection_role: "system",
    user_message_level: "warning",
  };
  return result;
}

export const typed: HookHandler = handler;
`;

function checkFile(methods: readonly string[]): string {
  return `import type { HookResult as NativeResult, NativeEvent } from ${JSON.stringify(resolve(ROOT, "src/core/events/types.ts"))};

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type At<T, P extends string> = P extends \`\${infer Head}.\${infer Rest}\` ? (Head extends keyof T ? At<T[Head], Rest> : never) : P extends keyof T ? T[P] : never;
type Methods = ${methods.map((m) => JSON.stringify(m)).join(" | ")};
type IsMethod = { [M in Methods]: At<Hookbox.Hook, M> extends (...args: never[]) => Promise<unknown> ? true : false };

// The .d.ts must describe exactly the native wire types, and every host method the sandbox installs.
export const resultMatches: Equal<HookResult, NativeResult> = true;
export const eventMatches: Equal<HookEvent, NativeEvent> = true;
export const everyMethod: false extends IsMethod[Methods] ? false : true = true;
`;
}

describe("hookbox types", () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir("hookbox-types-");
  });
  afterAll(() => removeDir(dir));

  it("prints the .d.ts", async () => {
    let printed = "";
    let exit = -1;
    const ctx = { host: {} as CliContext["host"], out: async (text: string) => void (printed += text), err: () => undefined } satisfies CliContext;
    const program = new Command().exitOverride();
    registerTypes(program, ctx, (code) => (exit = code));
    await program.parseAsync(["types"], { from: "user" });
    expect(printed).toBe(handlerDeclarations());
    expect(printed.startsWith(HOOK_API_DTS)).toBe(true);
    expect(printed).toContain('declare module "hookbox:shell"');
    expect(exit).toBe(0);
  });

  it("a handler using every method type-checks against it (tsc --noEmit), with units in the doc comments", () => {
    writeFileSync(`${dir}/hookbox.d.ts`, handlerDeclarations());
    writeFileSync(`${dir}/handler.ts`, SAMPLE);
    writeFileSync(`${dir}/check.ts`, checkFile(HOOK_API_METHODS));
    const handlers = resolve(ROOT, "handlers");
    const extra = existsSync(handlers)
      ? readdirSync(handlers, { recursive: true, encoding: "utf8" })
          .filter((file) => file.endsWith(".ts"))
          .map((file) => resolve(handlers, file))
      : [];
    const tsconfig = {
      compilerOptions: {
        target: "ES2023",
        lib: ["ES2023"],
        module: "ESNext",
        moduleResolution: "Bundler",
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        types: [],
        skipLibCheck: false,
      },
      files: ["hookbox.d.ts", "handler.ts", "check.ts", ...extra],
    };
    writeFileSync(`${dir}/tsconfig.json`, JSON.stringify(tsconfig));
    try {
      execFileSync(resolve(ROOT, "node_modules/.bin/tsc"), ["--noEmit", "-p", dir], { encoding: "utf8" });
    } catch (error) {
      throw new Error(`tsc failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
    }
    for (const unit of ["1 MiB", "50 KiB", "milliseconds", "Default 30000", "at most 10 KiB"]) expect(HOOK_API_DTS).toContain(unit);
  });

  it("the sample compiles for the sandbox: the type-only import is erased", async () => {
    const compiled = await compileHandler(SAMPLE, "handler.ts");
    expect(compiled.ok).toBe(true);
    if (compiled.ok) expect(compiled.handler.code).not.toContain('from "hookbox"');
  });
});
