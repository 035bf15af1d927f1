import { Option, type Command } from "commander";
import { HookboxError } from "../core/errors.ts";
import { bundleFileName, packBundle, parseBundleFileName } from "../hooks/packages/bundle.ts";
import { inspectPackage } from "../hooks/packages/inspect.ts";
import { compareBytes } from "../hooks/packages/tar.ts";
import { hex, readTree, sha256, treeDigest } from "../hooks/packages/tree.ts";
import { resolvePath } from "../core/text/posix-path.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { openSession } from "./package-session.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { plural } from "../core/text/plural.ts";

/** The index of a mirror served over https (a directory is listed instead): the bundles it holds. */
export interface MirrorIndexV1 {
  readonly v: 1;
  readonly bundles: readonly { readonly file: string; readonly id: string; readonly version: string; readonly sha256: string }[];
}

/**
 * `hookbox pack <dir>`: a reproducible bundle of a hook package — the same files give the same
 * bytes, whatever their mtimes, owners or modes — checked to load first. Sign it with
 * `minisign -S -m <bundle>`.
 */
export function registerPack(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  program
    .command("pack")
    .description("Make a reproducible bundle (<id>-<version>.tar.gz) of a hook package folder, checked to load first")
    .argument("<dir>", "the package folder: hook.yaml at its top, its handler and files beside it")
    .option("--out <dir>", "where to write the bundle (default: the current directory)")
    .option("--index", "also (re)write index.json in --out, listing every bundle there: what a mirror served over https needs")
    .option("--json", "print the result as JSON")
    .addOption(new Option("--config <file>", "the operator file (its rules shape the review, not the bundle)"))
    .addHelpText("after", "\nThen sign it:  minisign -S -s <secret key> -m <bundle>   (writes <bundle>.minisig beside it)")
    .action(async (dir: string, options: { out?: string; index?: boolean; json?: boolean; config?: string }) => {
      const session = await openSession(ctx, runtime, options);
      const fs = ctx.host.fs;
      const source = resolvePath(ctx.host.cwd(), dir);
      const tree = await readTree(fs, source);
      const inspected = await inspectPackage(tree, source, session.operator, session.capabilities);
      if (inspected.version === null || parseBundleFileName(bundleFileName(inspected.id, inspected.version)) === undefined) {
        throw new HookboxError("config_invalid", `${source}/hook.yaml: pack needs a version starting with a digit (version: 1.0.0)`);
      }
      const bytes = await packBundle(tree, ctx.host.packageIO);
      const out = resolvePath(ctx.host.cwd(), options.out ?? ".");
      await fs.mkdirp(out, 0o755);
      const file = `${out}/${bundleFileName(inspected.id, inspected.version)}`;
      await fs.writeBytesAtomic(file, bytes, 0o644);
      const result = {
        file,
        id: inspected.id,
        version: inspected.version,
        bytes: bytes.length,
        sha256: hex(await sha256(bytes)),
        integrity: (await treeDigest(tree)).integrity,
        files: [...tree.keys()],
      };
      if (options.index) await writeIndex(ctx, out);
      await ctx.out(
        options.json
          ? `${JSON.stringify(result, null, 2)}\n`
          : `${file}\n  ${plural(result.files.length, "file")}, ${result.bytes} bytes, sha256 ${result.sha256}\n  sign it: minisign -S -m ${file}\n`,
      );
      setExit(EXIT.ok);
    });
}

async function writeIndex(ctx: CliContext, dir: string): Promise<void> {
  const entries = (await ctx.host.fs.listDir(dir))
    .filter((e) => e.kind === "file")
    .map((e) => ({ name: e.name, parsed: parseBundleFileName(e.name) }));
  const bundles: MirrorIndexV1["bundles"][number][] = [];
  for (const { name, parsed } of entries.sort((a, b) => compareBytes(a.name, b.name))) {
    if (!parsed) continue;
    bundles.push({ file: name, ...parsed, sha256: hex(await sha256(await ctx.host.fs.readBytes(`${dir}/${name}`))) });
  }
  const index: MirrorIndexV1 = { v: 1, bundles };
  await ctx.host.fs.writeTextAtomic(`${dir}/index.json`, `${JSON.stringify(index, null, 2)}\n`, 0o644);
}
