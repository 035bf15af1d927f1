import type { Command } from "commander";
import { HookboxError, errorMessage } from "../core/errors.ts";
import { acquire, packageTree } from "../hooks/packages/acquire.ts";
import { inspectPackage } from "../hooks/packages/inspect.ts";
import { checkSignature, trustedKeys } from "../hooks/packages/signature.ts";
import { parseSource } from "../hooks/packages/source.ts";
import { treeDigest } from "../hooks/packages/tree.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { collect, describeCandidate, openSession, configOption } from "./package-session.ts";
import { reviewWidth } from "./review-lines.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";

/** `hookbox verify <bundle>`: its minisign signature against the trusted keys, offline, and what it would get. */
export function registerVerify(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  program
    .command("verify")
    .description("Check a bundle's minisign signature against packages.trusted_keys (or --key), and show what its hook would get")
    .option("--key <public-key>", "also trust this minisign public key (the base64 line of a .pub file)", collect)
    .option("--json", "print the result as JSON")
    .addOption(configOption())
    .argument("<bundle>", "a .tar.gz bundle (its .minisig beside it) or an https bundle URL")
    .action(async (bundle: string, options: { key?: string[]; json?: boolean; config?: string }) => {
      const session = await openSession(ctx, runtime, options);
      const source = parseSource(bundle, ctx.host.cwd());
      if (source.kind !== "bundle" && source.kind !== "url")
        throw new HookboxError("usage", `${bundle}: verify takes a bundle (.tar.gz) or its URL; folders and repositories carry no signature`);
      const acquired = await acquire(source, session.deps);
      const signer = await checkSignature(acquired, trustedKeys(session.operator, options.key), true, ctx.host.packageIO);
      const tree = await packageTree(acquired, ctx.host.packageIO);
      const digest = await treeDigest(tree);
      let loads: string | undefined;
      const inspected = await inspectPackage(tree, acquired.bundle?.where ?? bundle, session.operator, session.capabilities).catch(
        (error: unknown) => {
          loads = errorMessage(error);
          return undefined;
        },
      );
      const result = {
        bundle: acquired.bundle?.where,
        signer,
        integrity: digest.integrity,
        files: Object.keys(digest.files),
        id: inspected?.id ?? null,
        version: inspected?.version ?? null,
        grants: inspected?.hook.review.lines ?? [],
        loads: loads === undefined,
        problem: loads ?? null,
      };
      if (options.json) await ctx.out(`${JSON.stringify(result, null, 2)}\n`);
      else {
        const lines = inspected
          ? describeCandidate({ acquired, tree, signer, inspected }, reviewWidth(ctx))
          : [`signed by key ${signer?.key_id} (trusted comment: ${signer?.trusted_comment})`, `it does not load: ${loads}`];
        await ctx.out(`verified: ${acquired.bundle?.where}\n${lines.join("\n")}\n  integrity ${digest.integrity}\n`);
      }
      setExit(loads === undefined ? EXIT.ok : EXIT.failed);
    });
}
