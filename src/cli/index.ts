// src/cli owns the command line, one file per command; it must not import the entry points (src/main.ts …), nor runtime APIs directly.
// Exit codes are mapped in exit-codes.ts only; commands receive a CliContext.
import { Command, CommanderError } from "commander";
import { leanHostOf, type RuntimeHost } from "../platform/index.ts";
import { createCliContext } from "./context.ts";
import { registerDoctor } from "./doctor/index.ts";
import { EXIT, exitStatusHelp } from "./exit-codes.ts";
import { errorFormatOf, jsonError, reportError } from "./report-error.ts";
import { registerApprovals } from "./approvals.ts";
import { registerFire } from "./fire.ts";
import { registerAudit } from "./audit.ts";
import { registerConsole } from "./console.ts";
import { runEmit } from "./emit.ts";
import { registerInstallAgent } from "./install-agent.ts";
import { registerUninstallAgent } from "./uninstall-agent.ts";
import { registerList } from "./list.ts";
import { registerRun } from "./run.ts";
import { registerRuns } from "./runs.ts";
import { registerServe } from "./serve.ts";
import { registerDaemon } from "./daemon.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { registerNew } from "./new.ts";
import { registerOpenApi } from "./openapi.ts";
import { registerSchema } from "./schema.ts";
import { registerTest } from "./test.ts";
import { registerTypes } from "./types.ts";
import { registerValidate } from "./validate.ts";
import { registerCheck } from "./check.ts";
import { registerShow } from "./show.ts";
import { registerCompletion } from "./completion/index.ts";
import { registerSelfInstall } from "./self-install.ts";
import { registerSelfUninstall } from "./self-uninstall/index.ts";
import { registerSystemInstall } from "./system-install/index.ts";
import { registerVersion } from "./version.ts";
import { registerTrust } from "./trust.ts";
import { registerPromote } from "./promote.ts";
import { registerReplay } from "./replay.ts";
import { registerAdd } from "./add.ts";
import { registerUpdate } from "./update.ts";
import { registerRemove } from "./remove.ts";
import { registerPack } from "./pack.ts";
import { registerVerify } from "./verify.ts";
import { registerImport } from "./import.ts";
import { VERSION } from "../core/version/index.ts";

export async function runCli(host: RuntimeHost, factory: HookRuntimeFactory): Promise<number> {
  const ctx = createCliContext(host);
  // emit answers in the agent's protocol, even for its own usage errors: it never takes the path below.
  if (host.args[0] === "emit") return runEmit(leanHostOf(host), host.args.slice(1));
  let exitCode: number = EXIT.ok;
  const setExit = (code: number): void => {
    exitCode = code;
  };
  // With --json, every error is one JSON object (report-error.ts), commander's usage errors too.
  const format = errorFormatOf(host.args);
  const program = new Command("hookbox")
    .description("Run untrusted AI-agent hooks as sandboxed TypeScript handlers (QuickJS in WebAssembly).")
    .version(VERSION, "-V, --version", "print the version (-v too); hookbox version says how this binary was built")
    .option("--debug", "on an error, also print where in Hookbox it happened (the stack)")
    .exitOverride()
    .showHelpAfterError(format === "json" ? false : "(run hookbox --help for usage)")
    // commander writes through a synchronous callback: the write is queued, and the host's exit waits for it.
    .configureOutput({
      writeOut: (text) => void ctx.out(text),
      writeErr: (text) => ctx.err(text),
      outputError: (text, write) =>
        write(
          format === "json"
            ? jsonError(
                "usage",
                text
                  .replace(/^error: /, "")
                  .replace(/\s*\n\s*/g, " ")
                  .trim(),
                EXIT.usage,
              )
            : text,
        ),
    });
  registerRun(program, ctx, setExit);
  registerValidate(program, ctx, setExit, factory);
  registerCheck(program, ctx, setExit, factory);
  registerList(program, ctx, setExit, factory);
  registerShow(program, ctx, setExit, factory);
  registerSchema(program, ctx);
  registerOpenApi(program, ctx);
  registerTypes(program, ctx, setExit);
  registerTest(program, ctx, setExit);
  registerNew(program, ctx, setExit);
  registerServe(program, ctx, setExit, factory, VERSION);
  registerDaemon(program, ctx, setExit, factory);
  registerRuns(program, ctx, setExit);
  registerAudit(program, ctx, setExit);
  registerApprovals(program, ctx, setExit);
  registerFire(program, ctx, setExit);
  registerConsole(program, ctx, setExit);
  registerInstallAgent(program, ctx, setExit, factory);
  registerUninstallAgent(program, ctx, setExit);
  program
    .command("emit")
    .description("Answer an agent's hook call in its own protocol (see hookbox emit --help)")
    .allowUnknownOption()
    .argument("[args...]");
  registerDoctor(program, ctx, setExit, factory);
  registerAdd(program, ctx, setExit, factory);
  registerUpdate(program, ctx, setExit, factory);
  registerRemove(program, ctx, setExit, factory);
  registerPack(program, ctx, setExit, factory);
  registerVerify(program, ctx, setExit, factory);
  registerImport(program, ctx, setExit, factory);
  registerTrust(program, ctx, setExit, factory);
  registerPromote(program, ctx, setExit, factory);
  registerReplay(program, ctx, setExit, factory);
  registerVersion(program, ctx);
  registerSelfInstall(program, ctx);
  registerSelfUninstall(program, ctx, setExit);
  registerSystemInstall(program, ctx, setExit);
  // Last: it reads the commands registered above.
  registerCompletion(program, ctx);
  program.addHelpText("after", `\n${ENVIRONMENT_HELP}\n${exitStatusHelp()}`);
  try {
    // Bare `hookbox` asks what it can do: the help, on stdout, and that is a success.
    if (host.args.length === 0) {
      program.outputHelp();
      return EXIT.ok;
    }
    await program.parseAsync(commandLine(program, host.args), { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return reportError((text) => ctx.err(text), error, program.opts<{ debug?: boolean }>().debug === true || host.args.includes("--debug"), format);
  }
  return exitCode;
}

/**
 * The arguments as commander should see them: `-v` is the version as `-V` is (main.ts answers
 * both before this loads; this is for a caller of runCli), and `help <name>` of no command is
 * that name alone, so commander says "unknown command" with its did-you-mean rather than
 * printing the whole help.
 */
function commandLine(program: Command, args: readonly string[]): string[] {
  if (args.length === 1 && args[0] === "-v") return ["-V"];
  const [first, name] = args;
  if (
    first === "help" &&
    name !== undefined &&
    !name.startsWith("-") &&
    !program.commands.some((command) => command.name() === name || command.aliases().includes(name))
  )
    return [name];
  return [...args];
}

const ENVIRONMENT_HELP = `Environment (a flag wins over its variable, the variable over the default):
  HOOKBOX_SOCKET   the daemon's socket (--socket)
  HOOKBOX_CONFIG   the operator file (--config)
  XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_RUNTIME_DIR   where the user's hooks, the audit log and the socket are by default

Every command that prints data takes --json (keys in snake_case); with --json an error is one
JSON object on stderr: {"v":1,"error":{"code":"…","message":"…","exit_code":N}}. --debug adds the
stack to an error.
`;
