// src/cli owns the command line: one file per command, exit codes mapped in exit-codes.ts only.
// Commands receive a CliContext; they never touch runtime APIs directly.
import { Command, CommanderError } from "commander";
import packageJson from "../../package.json" with { type: "json" };
import { HookboxError, errorMessage } from "../errors.ts";
import type { RuntimeHost } from "../runtime/index.ts";
import { createCliContext } from "./context.ts";
import { registerDoctor } from "./doctor.ts";
import { EXIT, exitCodeFor } from "./exit-codes.ts";
import { interimCapabilities } from "./interim-capabilities.ts";
import { registerList } from "./list.ts";
import { registerRun } from "./run.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { registerSchema } from "./schema.ts";
import { registerValidate } from "./validate.ts";

export const VERSION = packageJson.version;

const interimFactory: HookRuntimeFactory = { capabilities: () => interimCapabilities(), embedded: () => new Map() };

export async function runCli(host: RuntimeHost, factory: HookRuntimeFactory = interimFactory): Promise<number> {
  const ctx = createCliContext(host);
  let exitCode: number = EXIT.ok;
  const setExit = (code: number): void => {
    exitCode = code;
  };
  const program = new Command("hookbox")
    .description("Run untrusted AI-agent hooks as sandboxed TypeScript handlers (QuickJS in WebAssembly).")
    .version(VERSION, "-V, --version")
    .exitOverride()
    .showHelpAfterError("(run hookbox --help for usage)")
    .configureOutput({ writeOut: (text) => void ctx.out(text), writeErr: (text) => ctx.err(text) });
  registerRun(program, ctx, setExit);
  registerValidate(program, ctx, setExit, factory);
  registerList(program, ctx, setExit, factory);
  registerSchema(program, ctx);
  registerDoctor(program, ctx, setExit);
  try {
    await program.parseAsync([...host.args], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof HookboxError) {
      ctx.err(`error[${error.code}]: ${error.message}\n`);
      return exitCodeFor(error.code);
    }
    ctx.err(`internal error: ${errorMessage(error)}\n${error instanceof Error && error.stack ? error.stack : ""}\n`);
    return EXIT.internal;
  }
  return exitCode;
}
