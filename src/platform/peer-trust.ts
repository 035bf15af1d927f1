// Whether the process that answered on a socket may decide an event: the policy over the facts
// src/platform/bun-peer.ts reads. Pure and light: emit's lean path imports it. Here, beside the
// readers, so that hookbox/client, emit and the daemon judge by this one rule.
import type { PeerEvidence } from "./peer-types.ts";

/**
 * Environment variables that put other code into the process a binary runs as, or change whom it
 * trusts on the network: the dynamic loader's (LD_PRELOAD, LD_AUDIT, LD_LIBRARY_PATH — a libc of
 * the agent's choosing is code too; DYLD_* on macOS), Bun's (BUN_OPTIONS=--preload,
 * BUN_BE_BUN=1 runs any script as this very binary, BUN_INSPECT* open a debugger), JavaScriptCore's
 * and Node's (NODE_OPTIONS=--require, NODE_EXTRA_CA_CERTS), glibc's tunables and malloc settings,
 * and the TLS trust and proxies of outgoing requests (a prompt hook's model, a notification).
 * Matched by prefix: a variable the runtime adds next year is covered before anyone lists it.
 * NODE_ENV alone is left out: a common setting in people's shells that loads no code.
 */
export const CODE_AND_TRUST_VARIABLES =
  /^(?!NODE_ENV$)(LD_|DYLD_|BUN_|NODE_|JSC_|__JSC|MALLOC_|GLIBC_TUNABLES$|SSL_CERT_|(HTTPS?|ALL|NO|FTP)_PROXY$)/i;

/**
 * PATH matters too: `run` grants resolve a command name on the evaluating process's PATH when the
 * hooks load (src/capabilities/run/command.ts), so a daemon started with a PATH of the agent's
 * choosing would run the agent's `git` where the operator granted theirs. See samePath.
 */
const SAME_VALUE = new Set(["PATH"]);

/** Who is asking: this process's uid and environment. */
export interface TrustingProcess {
  readonly uid: number | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Whether the answer decides an event (emit, doctor's "the daemon emit uses"): then PATH must
   * be equal too. A person's command reading runs or approvals does not need it: their shell's
   * PATH may well differ from the agent's that started the daemon.
   */
  readonly decides: boolean;
}

/**
 * Why the process that answered must not decide anything, in words for stderr; undefined when it
 * is proven to be this very Hookbox, as started by this user with nothing injected. Asked twice
 * of one connection (NetHost.requestWithPeer): once connected, before anything is sent, and
 * once answered (`stage.answered`), when it must also hold the connection. A proven
 * daemon's own answers are then trusted — including its refusal (409) to serve another hook set:
 * the identity check it makes (src/decide/identity.ts) is this build's own code.
 *
 * What is compared, and why each:
 * - the uid the kernel recorded for the listener: another user's process is never this user's daemon;
 * - that the process holds the server end of the very connection the answer came over (see
 *   bun-peer.ts): a pid named by SO_PEERCRED alone may have been reused, or its socket handed on;
 * - its executable, by device and inode (not by path: a path can be re-pointed, a mount namespace
 *   can put another file at the same path): the same file as this process's own means the same
 *   build, the same embedded standard hooks, the same identity check;
 * - a tracer (a debugger attached can make it answer anything);
 * - every code-loading or trust variable it was started with must be one this process has too,
 *   with the same value (so the operator's own LD_LIBRARY_PATH is no reason to refuse), and its
 *   PATH must resolve as this one's (samePath) where the answer decides an event. Other variables (HOME, XDG_*, HOOKBOX_CONFIG, CLAUDE_CONFIG_DIR …) decide the
 *   hook-set identity, which the proven daemon compares itself.
 */
export function distrust(
  evidence: PeerEvidence,
  me: TrustingProcess,
  stage: { readonly answered: boolean } = { answered: false },
): string | undefined {
  if (!evidence.read) return evidence.gone ? `a stale socket: ${evidence.why}` : `cannot verify what answers there: ${evidence.why}`;
  const { peer, self } = evidence;
  if (me.uid !== undefined && peer.uid !== me.uid) return `another uid: the process that listens there runs as uid ${peer.uid} (you are ${me.uid})`;
  // Known only once answered (the server may not have accepted the connection before); required then.
  if (peer.holdsConnection === false || (stage.answered && peer.holdsConnection !== true))
    return `not Hookbox: the process that listened there (pid ${peer.pid}) does not hold the connection that answered; another process did`;
  if (peer.executable.id !== self.id) return `not Hookbox: pid ${peer.pid} runs ${peer.executable.path}, not this Hookbox binary (${self.path})`;
  if (peer.tracerPid !== 0)
    return `a Hookbox under a debugger: pid ${peer.pid} is traced by process ${peer.tracerPid}, which can make it answer anything`;
  const injected = environmentDifferences(peer.environ, me.env, me.decides, self.writable);
  if (injected.length > 0) return `a Hookbox started with ${injected.join(", ")}: pid ${peer.pid} may run code or trust what this emit does not`;
  return undefined;
}

/** The variables of `environ` that the trusting process does not have with the same value (names only: values may be secrets). */
export function environmentDifferences(
  environ: readonly string[],
  mine: Readonly<Record<string, string | undefined>>,
  checkPath = true,
  writable?: (path: string) => boolean,
): string[] {
  const theirs = new Map<string, string>();
  for (const entry of environ) {
    const at = entry.indexOf("=");
    if (at > 0) theirs.set(entry.slice(0, at), entry.slice(at + 1));
  }
  const different: string[] = [];
  for (const [name, value] of theirs) if (CODE_AND_TRUST_VARIABLES.test(name) && mine[name] !== value) different.push(name);
  if (checkPath)
    for (const name of SAME_VALUE)
      if (!samePath(theirs.get(name), mine[name], writable))
        different.push(theirs.has(name) ? `another ${name} (${clip(theirs.get(name))}; here: ${clip(mine[name] ?? "none")})` : `no ${name}`);
  return different.sort();
}

/** A long value, shortened for a one-line message. */
function clip(text = ""): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * Whether the daemon's PATH resolves commands no worse than this process's: the same, or this
 * one's with entries in front that the daemon lacks, each writable by this user (or absent).
 * Agents put their own directories first on the PATH their hooks get (Codex: its apply_patch
 * and rg), which a daemon the person started from a shell does not have; a directory this user
 * can write, the agent can fill as well, so a daemon without it resolves nothing the agent could
 * not already choose. A directory the user cannot write (/usr/bin) missing from the daemon's PATH,
 * or any other difference, could make it find a later, writable one first: refused.
 */
export function samePath(theirs: string | undefined, mine: string | undefined, writable?: (path: string) => boolean): boolean {
  if (theirs === mine) return true;
  if (theirs === undefined || mine === undefined || !writable) return false;
  const own = mine.split(":");
  const extra = own.length - theirs.split(":").length;
  return extra > 0 && own.slice(extra).join(":") === theirs && own.slice(0, extra).every((dir) => dir.startsWith("/") && writable(dir));
}

/**
 * The variables that decide whether a daemon passes `distrust`'s environment check, as text: part
 * of the auto-started daemon's socket name (auto-socket.ts), so that emits run with another PATH
 * or loader settings (two agents started from different shells) each get a daemon of their own
 * instead of refusing one another's.
 */
export function trustedEnvironmentKey(env: Readonly<Record<string, string | undefined>>): string {
  const names = Object.keys(env)
    .filter((name) => CODE_AND_TRUST_VARIABLES.test(name) || SAME_VALUE.has(name))
    .sort();
  return JSON.stringify(names.map((name) => [name, env[name] ?? ""]));
}

/**
 * Under the system tier (`emit --system`, the entry an agent's managed settings run), whether a
 * daemon of this user may decide at all. Proving that it runs the system binary with the system
 * policy (distrust, and the identity it compares) is not enough where any process of the user
 * can trace it — attach, rewrite its answers, detach — as the kernel allows unless Yama
 * restricts ptrace to administrators (`kernel.yama.ptrace_scope` 2) or forbids it (3): at 1 the
 * agent's shell can still start a daemon as its own child and trace that. `scope`: the file's
 * content, undefined where there is none (no Yama: classic ptrace, any process of the same uid).
 * Where refused, emit evaluates in its own process, which the agent's processes cannot reach
 * that way (they are not its ancestors).
 */
export function systemTierDaemonRefusal(scope: string | undefined): string | undefined {
  const level = scope === undefined ? undefined : Number.parseInt(scope.trim(), 10);
  if (level !== undefined && level >= 2) return undefined;
  return `under the system tier a daemon running as you decides only where your processes cannot trace it (kernel.yama.ptrace_scope 2 or 3; here ${level === undefined || Number.isNaN(level) ? "no Yama: any process of yours can" : level})`;
}
