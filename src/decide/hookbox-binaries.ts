import type { NativeEvent } from "../core/events/types.ts";
import { INSTALL_AGENTS, installedEntries, type InstallAgent } from "../agents/installers.ts";
import type { FileHost } from "../platform/types.ts";
import { normalizePath } from "../core/text/posix-path.ts";
import { walkLinks } from "../hooks/registry/link-targets.ts";

/**
 * Every path that leads to the Hookbox binary an agent's hook entries run, for self-protect
 * (`hookbox_binaries` on each PreToolUse event, added by the host like `link_targets`, never taken
 * from the agent): the command path of each entry install-agent wrote (found through the install
 * records in <data dir>/installs/ and the settings files they name), the path `emit` was invoked
 * as (the daemon hears it from emit), this process's own binary — and for each, every symbolic
 * link along it (`~/.local/bin/hookbox`, a linked `~/.local/bin`) and where it finally leads. The
 * agent may not delete, replace or re-link any of them: a binary that answers "allow" to
 * everything would switch every guard off.
 */
export type BinaryFiles = Pick<FileHost, "kind" | "readLink" | "realpath" | "readText" | "listDir" | "stamp"> & Partial<Pick<FileHost, "probe">>;

/** Paths kept per event, at most: a hostile install record cannot make each event slow. */
const MAX_PATHS = 64;
const MAX_RECORDS = 64;
const MAX_PATH_CHARS = 4096;

interface Installed {
  readonly stamp: string;
  readonly commands: readonly string[];
}

export class HookboxBinaries {
  /** Each settings file's command paths, by the stamp they were read at. */
  private readonly installed = new Map<string, Installed>();
  private records: { stamp: string; files: { file: string; agent: string }[] } | undefined;

  constructor(
    private readonly files: BinaryFiles,
    private readonly dataDir: string,
    /** This process's own binary (as invoked, and its real path); none when running from sources. */
    private readonly own: readonly (string | undefined)[],
  ) {}

  /** The paths for one event; `invokedAs` is the path the calling `emit` was invoked as (the daemon's header). */
  async paths(invokedAs?: string): Promise<string[]> {
    const starts = [...this.own, invokedAs, ...(await this.installedCommands())].filter(
      (p): p is string => typeof p === "string" && p.startsWith("/") && p.length <= MAX_PATH_CHARS && !p.includes("\0"),
    );
    const out = new Set<string>();
    for (const start of new Set(starts)) {
      for (const path of await linkChain(this.files, start)) {
        if (out.size >= MAX_PATHS) return [...out];
        out.add(path);
      }
    }
    return [...out];
  }

  /** The absolute command paths of Hookbox's entries in the settings files the install records name. */
  private async installedCommands(): Promise<string[]> {
    const dir = `${this.dataDir}/installs`;
    const stamp = await this.stampOf(dir);
    if (this.records?.stamp !== stamp) this.records = { stamp, files: stamp === "missing" ? [] : await this.readRecords(dir) };
    const commands: string[] = [];
    for (const { file, agent } of this.records.files) {
      const fileStamp = await this.stampOf(file);
      let known = this.installed.get(file);
      if (known?.stamp !== fileStamp) {
        known = { stamp: fileStamp, commands: fileStamp === "missing" ? [] : await this.readCommands(file, agent) };
        this.installed.set(file, known);
      }
      commands.push(...known.commands);
    }
    return commands;
  }

  /** Every PreToolUse asks: at once where the runtime can (PathProbe). */
  private async stampOf(path: string): Promise<string> {
    return this.files.probe ? this.files.probe.stamp(path) : this.files.stamp(path).catch(() => "missing");
  }

  private async readRecords(dir: string): Promise<{ file: string; agent: string }[]> {
    const entries = await this.files.listDir(dir).catch(() => []);
    const found: { file: string; agent: string }[] = [];
    for (const entry of entries.filter((e) => e.name.endsWith(".json")).slice(0, MAX_RECORDS)) {
      try {
        const record = JSON.parse(await this.files.readText(`${dir}/${entry.name}`)) as { v?: unknown; file?: unknown; agent?: unknown };
        if (record.v === 1 && typeof record.file === "string" && record.file.startsWith("/") && typeof record.agent === "string")
          found.push({ file: record.file, agent: record.agent });
      } catch {
        // A record that cannot be read names no entry; uninstall-agent reports it.
      }
    }
    return found;
  }

  private async readCommands(file: string, agent: string): Promise<string[]> {
    if (!(INSTALL_AGENTS as readonly string[]).includes(agent)) return [];
    try {
      const text = await this.files.readText(file);
      return installedEntries(agent as InstallAgent, text, file).flatMap((entry) => {
        const program = entry.command === undefined ? undefined : executableOf(entry.command);
        return program !== undefined ? [program] : [];
      });
    } catch {
      return [];
    }
  }
}

/** The program a hook command runs: its first word, quoted ("…") or bare. */
export function executableOf(command: string): string | undefined {
  const text = command.trim();
  const word = text.startsWith('"') ? text.slice(1, text.indexOf('"', 1) < 0 ? undefined : text.indexOf('"', 1)) : (text.split(/\s+/)[0] ?? "");
  return word.startsWith("/") ? normalizePath(word) : undefined;
}

/**
 * A path, each symbolic link met on the way to what it names (as walked: the link itself, a
 * linked directory above it), and where it finally leads. Nothing is opened or created.
 */
export async function linkChain(files: Pick<FileHost, "kind" | "readLink"> & Partial<Pick<FileHost, "probe">>, absolute: string): Promise<string[]> {
  const walk = await walkLinks(files, absolute);
  return [...new Set([normalizePath(absolute), ...walk.links, walk.real ?? walk.reached])];
}

/** The event as hooks see it: `hookbox_binaries` set by the host on PreToolUse, dropped when the agent sent one. */
export async function withHookboxBinaries(
  event: NativeEvent,
  binaries: HookboxBinaries | undefined,
  invokedAs: string | undefined,
): Promise<NativeEvent> {
  const { hookbox_binaries: _sent, ...rest } = event as NativeEvent & { hookbox_binaries?: unknown };
  if (binaries === undefined || event.event_type !== "PreToolUse") return _sent === undefined ? event : (rest as NativeEvent);
  const paths = await binaries.paths(invokedAs).catch(() => []);
  return paths.length > 0 ? ({ ...rest, hookbox_binaries: paths } as NativeEvent) : (rest as NativeEvent);
}
