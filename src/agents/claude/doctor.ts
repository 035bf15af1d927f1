import { failed as fail, passed as pass, type AgentCheck, type AgentDoctor, type DoctorIO } from "../shared/doctor.ts";
import type { InstalledEntry } from "../shared/install/entries.ts";

/** An http entry's loopback URL and the token variable (or literal header) it sends. */
interface HttpTarget {
  readonly url: string;
  readonly hostname: string;
  readonly port: number;
  readonly tokenEnvVar?: string;
  readonly header?: string;
}

function targetOf(entry: InstalledEntry): HttpTarget | undefined {
  if (entry.url === undefined) return undefined;
  const match = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?\//.exec(entry.url);
  if (!match) return undefined;
  const auth = entry.headers?.Authorization ?? entry.headers?.authorization;
  const variable = typeof auth === "string" ? /^Bearer \$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(auth)?.[1] : undefined;
  return {
    url: entry.url,
    hostname: match[1] === "[::1]" ? "::1" : (match[1] as string),
    port: Number(match[2] ?? 80),
    ...(variable !== undefined ? { tokenEnvVar: variable } : typeof auth === "string" ? { header: auth } : {}),
  };
}

/**
 * Claude Code's http hooks fail open: a daemon that does not answer, or answers 401 for a
 * missing token, is a non-blocking error to Claude and the tool runs. So each distinct URL must
 * answer GET /healthz with the token the entries send, from this environment (Claude's, when
 * doctor runs in the shell Claude is started from).
 */
async function httpHookChecks(io: DoctorIO, name: string, file: string, entries: readonly InstalledEntry[]): Promise<AgentCheck[]> {
  const targets = new Map<string, HttpTarget>();
  for (const entry of entries) {
    const target = targetOf(entry);
    if (target) targets.set(`${target.hostname}:${target.port} ${target.tokenEnvVar ?? target.header ?? ""}`, target);
  }
  const checks: AgentCheck[] = [];
  for (const target of targets.values()) {
    const label = `${name} http`;
    const token = target.tokenEnvVar !== undefined ? io.env[target.tokenEnvVar] : undefined;
    if (target.tokenEnvVar !== undefined && (token === undefined || token === "")) {
      checks.push(
        fail(
          label,
          `${file}: the http hooks send the token from $${target.tokenEnvVar}, which is not set here: the daemon will answer 401 and Claude Code runs every tool unchecked (http hooks fail open). Export it where Claude Code starts (the daemon's token file: ~/.local/share/hookbox/http-token), or use command hooks`,
        ),
      );
      continue;
    }
    const authorization = token !== undefined ? `Bearer ${token}` : target.header;
    let reply;
    try {
      reply = await io.net.request(
        { hostname: target.hostname, port: target.port },
        { method: "GET", path: "/healthz", timeoutMs: 5000, ...(authorization ? { headers: { authorization } } : {}) },
      );
    } catch (error) {
      checks.push(
        fail(
          label,
          `${file}: nothing answers on ${target.url} (${(error as Error).message}): Claude Code runs every tool unchecked until a daemon listens there (hookbox serve --listen ${target.hostname}:${target.port}), or use command hooks`,
        ),
      );
      continue;
    }
    if (reply.status === 401)
      checks.push(
        fail(
          label,
          `${file}: the daemon on ${target.url} refuses the token the hooks send (401): Claude Code runs every tool unchecked. Use the token of that daemon`,
        ),
      );
    else if (reply.status !== 200 && reply.status !== 503)
      checks.push(fail(label, `${file}: ${target.url} answered GET /healthz with ${reply.status}: not a Hookbox daemon?`));
    else
      checks.push(
        pass(
          label,
          `${file}: a daemon answers on ${target.url} and accepts the token the hooks send${reply.status === 503 ? " (it reports itself degraded: see the daemon check)" : ""}`,
        ),
      );
  }
  return checks;
}

export const doctor: AgentDoctor = {
  /** What doctor sends through Claude Code's PreToolUse entry: reading the project's README. */
  probe: {
    event: "PreToolUse",
    payload: (p, sessionId) => ({
      session_id: sessionId,
      transcript_path: "",
      cwd: p,
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: `${p}/README.md` },
    }),
  },
  /** Its http hooks (install-agent --http) must reach a daemon that takes their token. */
  checks: async (io, { scope, file, entries }) =>
    entries.some((entry) => entry.url !== undefined) ? httpHookChecks(io, `claude (${scope})`, file, entries) : [],
};
