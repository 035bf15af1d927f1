import { errorMessage } from "../core/errors.ts";
import { headOfLine, type AuditHead } from "../decide/audit/system-log.ts";
import { readSystemLayer } from "../decide/system-layer.ts";
import { parseYaml } from "../hooks/config/diagnostics.ts";
import { operatorFileSchema } from "../hooks/config/schema.ts";
import type { Locations } from "../hooks/config/locations.ts";
import type { CliContext } from "./context.ts";

/** Where rsyslog puts the authpriv facility on the common distributions, then everything. */
const DEFAULT_FILES = ["/var/log/auth.log", "/var/log/secure", "/var/log/messages", "/var/log/syslog"];
/** A system log read whole is bounded: a larger one is read from its end. */
const MAX_BYTES = 256 * 1024 * 1024;

export interface SystemLogHeads {
  readonly heads: AuditHead[];
  /** What was read. */
  readonly sources: string[];
  /** What could not be read, with why. */
  readonly unreadable: string[];
}

/**
 * The heads of the audit log `path` that the system log holds: from the files given, else those
 * the system policy names (audit.system_log.read), else where rsyslog writes them by default.
 * `-` is stdin (`journalctl -o cat | hookbox audit verify --against-system-log --system-log -`).
 */
export async function readSystemLogHeads(
  ctx: CliContext,
  locations: Locations,
  path: string,
  given: readonly string[] | undefined,
): Promise<SystemLogHeads> {
  const fs = ctx.host.fs;
  const files = given ?? (await policyFiles(ctx, locations)) ?? (await existing(ctx, DEFAULT_FILES));
  const names = new Set([path, await fs.realpath(path).catch(() => path)]);
  const heads: AuditHead[] = [];
  const sources: string[] = [];
  const unreadable: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = file === "-" ? await ctx.host.readStdin(MAX_BYTES) : new TextDecoder().decode(await fs.readTail(file, MAX_BYTES));
    } catch (error) {
      unreadable.push(`${file} (${errorMessage(error)})`);
      continue;
    }
    sources.push(file === "-" ? "stdin" : file);
    for (const line of text.split("\n")) {
      const head = headOfLine(line);
      if (head && names.has(head.log)) heads.push(head);
    }
  }
  return { heads, sources, unreadable };
}

/** The files the system policy says the heads are in, when it says (only the system policy says where its anchor goes). */
async function policyFiles(ctx: CliContext, locations: Locations): Promise<string[] | undefined> {
  const layer = await readSystemLayer(ctx.host.fs, { ...locations.system, required: false }, parseYaml, operatorFileSchema);
  return layer.kind === "ok" ? layer.layer.operator.audit.system_log?.read : undefined;
}

async function existing(ctx: CliContext, files: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const file of files) if ((await ctx.host.fs.kind(file)) === "file") found.push(file);
  return found;
}
