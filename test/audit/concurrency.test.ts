import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verifyAuditLog } from "../../src/decide/audit/verify.ts";
import { nodeFileHost } from "../../src/platform/node.ts";

const APPENDER = join(import.meta.dirname, "fixtures/appender.ts");
const tsx = createRequire(import.meta.url).resolve("tsx");
const dir = mkdtempSync(join(tmpdir(), "hookbox-audit-concurrent-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function appender(path: string, name: string, count: number, mode: "emit" | "daemon"): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", tsx, APPENDER, path, name, String(count), mode], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.stderr.on("data", (c: Buffer) => (err += c));
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${name} exited ${code}: ${err}`))));
  });
}

describe("concurrent writers of one audit log", () => {
  it("eight one-shot writers and a rotating group-committing one leave a chain that verifies", async () => {
    const path = join(dir, "audit", "hookbox-audit.jsonl");
    mkdirSync(join(dir, "audit"), { recursive: true });
    const emits = 8;
    const perEmit = 25;
    const daemonRecords = 150;
    const [daemonStats] = await Promise.all([
      appender(path, "daemon", daemonRecords, "daemon"),
      ...Array.from({ length: emits }, (_, i) => appender(path, `emit${i}`, perEmit, "emit")),
    ]);
    expect(JSON.parse(daemonStats)).toMatchObject({ written: daemonRecords, dropped: 0 });
    expect(JSON.parse(daemonStats).rotations).toBeGreaterThan(0);
    const report = await verifyAuditLog({ fs: nodeFileHost, path, pid: process.pid });
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ ok: true, origin: "genesis", records: daemonRecords + emits * perEmit });
    // Every record is there once: none lost, none doubled by a writer that started over.
    const ids = readdirSync(join(dir, "audit"))
      .filter((n) => n.startsWith("hookbox-audit.jsonl") && !n.endsWith(".lock"))
      .flatMap((n) =>
        readFileSync(join(dir, "audit", n), "utf8")
          .split("\n")
          .filter(Boolean),
      )
      .map((l) => (JSON.parse(l) as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(daemonRecords + emits * perEmit);
    expect(readdirSync(join(dir, "audit")).filter((n) => n.includes(".lock"))).toEqual([]);
  });
});
