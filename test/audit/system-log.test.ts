import { describe, expect, it } from "vitest";
import { checkHeads, formatHead, headOfLine, type AuditHead } from "../../src/decide/audit/system-log.ts";

const LOG = "/home/u/.local/share/hookbox/audit/hookbox-audit.jsonl";
const hash = (n: number): string => `sha256:${n.toString(16).padStart(64, "0")}`;
const head = (n: number, at: string): AuditHead => ({ v: 1, uid: 1000, log: LOG, head: hash(n), at });
const line = (n: number, at: string) => ({ hash: hash(n), record: { at } });

describe("audit heads in the system log", () => {
  it("are read back from the lines rsyslog writes, in its formats, and from journalctl -o cat", () => {
    const sent = head(7, "2026-11-27T10:00:00.000Z");
    const message = formatHead(sent, { address: "unix:/dev/log", facility: "authpriv" }, { hostname: "box", pid: 42 });
    expect(message).toMatch(/^<86>1 2026-11-27T10:00:00.000Z box hookbox-audit 42 head - \{"hookbox_audit_head":/);
    const json = message.slice(message.indexOf("{"));
    for (const written of [message, `Nov 27 10:00:00 box hookbox-audit[42]: ${json}`, json]) expect(headOfLine(written)).toEqual(sent);
    expect(headOfLine("Nov 27 10:00:00 box sshd[1]: Accepted publickey")).toBeUndefined();
    expect(headOfLine('x {"hookbox_audit_head":{"v":1,"log":"/x","head":"not a hash","at":"t"}}')).toBeUndefined();
  });
});

describe("checkHeads: the kept audit files against the heads the system log holds", () => {
  const lines = [line(1, "2026-11-27T10:00:00Z"), line(2, "2026-11-27T10:01:00Z"), line(3, "2026-11-27T10:02:00Z")];
  it("every head a line of the kept files: ok", () => {
    const check = checkHeads(lines, "genesis", [head(1, "2026-11-27T10:00:01Z"), head(3, "2026-11-27T10:02:01Z")]);
    expect(check).toMatchObject({ ok: true, heads: 2, found: 2, missing: [], rotatedOut: 0, newest: { head: hash(3), found: true } });
  });
  it("the newest records cut (or the file truncated): their heads are missing", () => {
    const check = checkHeads(lines.slice(0, 2), "genesis", [head(2, "2026-11-27T10:01:01Z"), head(3, "2026-11-27T10:02:01Z")]);
    expect(check.ok).toBe(false);
    expect(check.missing).toEqual([{ head: hash(3), at: "2026-11-27T10:02:01Z" }]);
  });
  it("rewritten with the chain recomputed: the old heads are no lines any more", () => {
    const rewritten = [line(11, "2026-11-27T10:00:00Z"), line(12, "2026-11-27T10:01:00Z"), line(13, "2026-11-27T10:02:00Z")];
    expect(checkHeads(rewritten, "genesis", [head(2, "2026-11-27T10:01:01Z"), head(13, "2026-11-27T10:02:01Z")]).missing).toHaveLength(1);
  });
  it("heads older than the oldest kept record of a log that continues a rotated one: rotated out, not missing", () => {
    const check = checkHeads(lines.slice(1), "continued", [head(0, "2026-11-27T09:00:00Z"), head(3, "2026-11-27T10:02:01Z")]);
    expect(check).toMatchObject({ ok: true, rotatedOut: 1, missing: [] });
  });
  it("a log begun anew after the system log saw records of it: deleted", () => {
    const check = checkHeads([line(21, "2026-11-27T11:00:00Z")], "genesis", [head(3, "2026-11-27T10:02:01Z"), head(21, "2026-11-27T11:00:01Z")]);
    expect(check.ok).toBe(false);
    expect(check.restarted).toMatch(/deleted and begun again/);
  });
  it("no log at all, heads in the system log: missing", () => {
    expect(checkHeads([], "empty", [head(3, "2026-11-27T10:02:01Z")]).ok).toBe(false);
  });
  it("a head the user forged into the system log is flagged, never taken as the log's", () => {
    expect(checkHeads(lines, "genesis", [head(3, "2026-11-27T10:02:01Z"), head(99, "2026-11-27T10:03:00Z")]).missing).toEqual([
      { head: hash(99), at: "2026-11-27T10:03:00Z" },
    ]);
  });
});
