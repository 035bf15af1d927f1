// src/cli owns the command line: one file per command, exit codes mapped in exit-codes.ts only.
// Commands receive a CliContext; they never touch runtime APIs directly.
import { Command, CommanderError } from "commander";
import { HookboxError, errorMessage } from "../errors.ts";
import { leanHostOf, type RuntimeHost } from "../runtime/index.ts";
import { createCliContext } from "./context.ts";
import { registerDoctor } from "./doctor/index.ts";
import { EXIT, exitCodeFor } from "./exit-codes.ts";
import { registerApprovals } from "./approvals.ts";
import { registerConsole } from "./console.ts";
import { runEmit } from "./emit.ts";
import { registerInstallAgent } from "./install-agent.ts";
import { registerUninstallAgent } from "./uninstall-agent.ts";
import { registerList } from "./list.ts";
import { registerRun } from "./run.ts";
import { registerRuns } from "./runs.ts";
import { registerServe } from "./serve.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { registerNew } from "./new.ts";
import { registerSchema } from "./schema.ts";
import { registerTest } from "./test.ts";
import { registerTypes } from "./types.ts";
import { registerValidate } from "./validate.ts";
import { registerCompletion } from "./completion/index.ts";
import { registerSelfInstall } from "./self-install.ts";
import { registerVersion } from "./version.ts";
import { VERSION } from "../version/index.ts";

export async function runCli(host: RuntimeHost, factory: HookRuntimeFactory): Promise<number> {
  const ctx = createCliContext(host);
  // emit answers in the agent's protocol, even for its own usage errors: it never takes the path below.
  if (host.args[0] === "emit") return runEmit(leanHostOf(host), host.args.slice(1));
  let exitCode: number = EXIT.ok;
  const setExit = (code: number): void => {
    exitCode = code;
  };
  const program = new Command("hookbox")
    .description("Run untrusted AI-agent hooks as sandboxed TypeScript handlers (QuickJS in WebAssembly).")
    .version(VERSION, "-V, --version")
    .exitOverride()
    .showHelpAfterError("(run hookbox --help for usage)")
    // commander writes through a synchronous callback: the write is queued, and the host's exit waits for it.
    .configureOutput({ writeOut: (text) => void ctx.out(text), writeErr: (text) => ctx.err(text) });
  registerRun(program, ctx, setExit);
  registerValidate(program, ctx, setExit, factory);
  registerList(program, ctx, setExit, factory);
  registerSchema(program, ctx);
  registerTypes(program, ctx, setExit);
  registerTest(program, ctx, setExit);
  registerNew(program, ctx, setExit);
  registerServe(program, ctx, setExit, factory, VERSION);
  registerRuns(program, ctx, setExit);
  registerApprovals(program, ctx, setExit);
  registerConsole(program, ctx, setExit);
  registerInstallAgent(program, ctx, setExit);
  registerUninstallAgent(program, ctx, setExit);
  program.command("emit").description("Answer an agent's hook call in its own protocol (see hookbox emit --help)").allowUnknownOption().argument("[args...]");
  registerDoctor(program, ctx, setExit, factory);
  registerVersion(program, ctx);
  registerSelfInstall(program, ctx);
  // Last: it reads the commands registered above.
  registerCompletion(program, ctx);
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
