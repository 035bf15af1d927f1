import type { FileHost } from "../../platform/index.ts";
import type { ReplayReport } from "./report.ts";

/**
 * Replay reports kept for the web console (`hookbox replay --save`): `<data dir>/replays/<time>.json`,
 * private (0600 in a 0700 directory), the newest KEPT only. A report holds excerpts of the
 * sessions' calls: it stays with the audit log, not in the project.
 */
const KEPT = 50;

export interface SavedReport {
  readonly file: string;
  /** The command line that made it. */
  readonly command: string;
  readonly saved_at: string;
  readonly report: ReplayReport;
}

export function replaysDir(dataDir: string): string {
  return `${dataDir}/replays`;
}

export async function saveReport(fs: FileHost, dataDir: string, report: ReplayReport, command: string): Promise<string> {
  const dir = replaysDir(dataDir);
  await fs.mkdirp(dir, 0o700, true);
  const savedAt = new Date().toISOString();
  const file = `${dir}/${savedAt.replace(/[:.]/g, "-")}.json`;
  await fs.writeTextAtomic(file, `${JSON.stringify({ v: 1, command, saved_at: savedAt, report })}\n`, 0o600);
  const names = (await fs.listDir(dir)).filter((entry) => entry.kind === "file" && entry.name.endsWith(".json")).map((entry) => entry.name);
  for (const name of names.sort().slice(0, Math.max(0, names.length - KEPT))) await fs.remove(`${dir}/${name}`).catch(() => undefined);
  return file;
}

/** The saved reports, newest first; a file that is not one is left out. */
export async function readSavedReports(fs: Pick<FileHost, "listDir" | "readText">, dataDir: string, limit = KEPT): Promise<SavedReport[]> {
  const dir = replaysDir(dataDir);
  const names = (await fs.listDir(dir).catch(() => []))
    .filter((entry) => entry.kind === "file" && entry.name.endsWith(".json"))
    .map((entry) => entry.name)
    .sort()
    .reverse()
    .slice(0, limit);
  const saved: SavedReport[] = [];
  for (const name of names) {
    try {
      const value = JSON.parse(await fs.readText(`${dir}/${name}`)) as { v?: unknown; command?: unknown; saved_at?: unknown; report?: ReplayReport };
      if (value.v !== 1 || typeof value.command !== "string" || typeof value.saved_at !== "string" || value.report?.v !== 1) continue;
      saved.push({ file: name, command: value.command, saved_at: value.saved_at, report: value.report });
    } catch {
      // Not a report (edited, cut): left out.
    }
  }
  return saved;
}
