import { describe, expect, it } from "vitest";
import { daemonSockets } from "../../src/serve/daemon/auto-socket.ts";
import { distrust, environmentDifferences, samePath, systemTierDaemonRefusal, trustedEnvironmentKey } from "../../src/platform/peer-trust.ts";
import { resolveLocations } from "../../src/hooks/config/locations.ts";
import { identityOf } from "../../src/decide/identity.ts";
import type { PeerEvidence, PeerProcess } from "../../src/platform/index.ts";

/** Whether a peer may decide: a truth table of near misses, each differing from the genuine one in one fact. */
const SELF = { id: "254:0:0:5343494", path: "/home/u/.local/bin/hookbox" };
const ENV = { PATH: "/usr/bin:/bin", HOME: "/home/u", LD_LIBRARY_PATH: "/opt/lib", NODE_ENV: "production" };
const GENUINE: PeerProcess = {
  pid: 4242,
  uid: 1000,
  holdsConnection: true,
  executable: SELF,
  environ: ["PATH=/usr/bin:/bin", "HOME=/home/u", "LD_LIBRARY_PATH=/opt/lib", "SHLVL=1"],
  tracerPid: 0,
};
const me = { uid: 1000, env: ENV, decides: true };
const answered = { answered: true };

function evidence(peer: Partial<PeerProcess>): PeerEvidence {
  return { read: true, peer: { ...GENUINE, ...peer }, self: SELF };
}

describe("distrust: what may decide an event", () => {
  const cases: [string, PeerEvidence, RegExp | undefined][] = [
    ["the genuine daemon", evidence({}), undefined],
    [
      "its environment differs in what loads no code (SHLVL, HOME, NODE_ENV)",
      evidence({ environ: [...GENUINE.environ, "NODE_ENV=development", "TERM=xterm"] }),
      undefined,
    ],
    ["another uid", evidence({ uid: 1001 }), /^another uid: .*uid 1001 \(you are 1000\)/],
    ["the listener does not hold the connection", evidence({ holdsConnection: false }), /^not Hookbox: .*does not hold the connection/],
    [
      "another executable (a copy of the binary is another file)",
      evidence({ executable: { id: "254:0:0:999", path: "/tmp/hookbox" } }),
      /^not Hookbox: pid 4242 runs \/tmp\/hookbox, not this Hookbox binary/,
    ],
    [
      "the same path, another file (the binary replaced since it started)",
      evidence({ executable: { id: "254:0:0:1", path: `${SELF.path} (deleted)` } }),
      /^not Hookbox/,
    ],
    ["traced", evidence({ tracerPid: 77 }), /under a debugger: pid 4242 is traced by process 77/],
    ["LD_PRELOAD", evidence({ environ: [...GENUINE.environ, "LD_PRELOAD=/tmp/x.so"] }), /^a Hookbox started with LD_PRELOAD:/],
    ["LD_LIBRARY_PATH other than emit's", evidence({ environ: ["PATH=/usr/bin:/bin", "LD_LIBRARY_PATH=/tmp/evil"] }), /started with LD_LIBRARY_PATH/],
    ["BUN_OPTIONS --preload", evidence({ environ: [...GENUINE.environ, "BUN_OPTIONS=--preload /tmp/x.js"] }), /started with BUN_OPTIONS/],
    ["BUN_BE_BUN (the binary runs any script)", evidence({ environ: [...GENUINE.environ, "BUN_BE_BUN=1"] }), /started with BUN_BE_BUN/],
    ["BUN_INSPECT", evidence({ environ: [...GENUINE.environ, "BUN_INSPECT=ws://127.0.0.1:9229"] }), /started with BUN_INSPECT/],
    ["NODE_OPTIONS", evidence({ environ: [...GENUINE.environ, "NODE_OPTIONS=--require /tmp/x.js"] }), /started with NODE_OPTIONS/],
    ["a TLS trust store", evidence({ environ: [...GENUINE.environ, "SSL_CERT_FILE=/tmp/ca.pem"] }), /started with SSL_CERT_FILE/],
    ["a proxy, lower case", evidence({ environ: [...GENUINE.environ, "https_proxy=http://127.0.0.1:8080"] }), /started with https_proxy/],
    ["another PATH", evidence({ environ: ["PATH=/tmp/agent-bin:/usr/bin:/bin", "LD_LIBRARY_PATH=/opt/lib"] }), /started with another PATH/],
    ["no PATH", evidence({ environ: ["LD_LIBRARY_PATH=/opt/lib"] }), /started with no PATH/],
    [
      "the listener exited",
      { read: false, why: "the process that listened on it (pid 4242) has exited", gone: true },
      /^a stale socket: the process that listened/,
    ],
    ["unreadable", { read: false, why: "/proc/4242/environ cannot be read (errno 13)" }, /^cannot verify what answers there: /],
  ];
  it.each(cases)("%s", (_name, given, why) => {
    const said = distrust(given, me, answered);
    if (why === undefined) expect(said).toBeUndefined();
    else expect(said).toMatch(why);
  });

  it("once connected, before the server accepted: whether it holds the connection is not known yet, and not required; once answered it is", () => {
    const early = evidence({ holdsConnection: undefined });
    expect(distrust(early, me)).toBeUndefined();
    expect(distrust(early, me, answered)).toMatch(/does not hold the connection/);
  });

  it("a person's command (decides: false) does not need the same PATH; code-loading variables still count", () => {
    const person = { ...me, decides: false };
    expect(distrust(evidence({ environ: ["PATH=/tmp/agent-bin:/usr/bin", "LD_LIBRARY_PATH=/opt/lib"] }), person, answered)).toBeUndefined();
    expect(distrust(evidence({ environ: ["PATH=/usr/bin:/bin", "LD_AUDIT=/tmp/a.so"] }), person, answered)).toMatch(/LD_AUDIT/);
  });

  it("environmentDifferences names variables, never their values (they may be secrets); PATH's directories are shown", () => {
    const said = environmentDifferences(["HTTPS_PROXY=http://user:secret@host", "PATH=/x"], { PATH: "/y" }).join(" ");
    expect(said).toBe("HTTPS_PROXY another PATH (/x; here: /y)");
    expect(said).not.toContain("secret");
  });
});

describe("samePath: the daemon's PATH resolves no command the agent could choose that this one's would not", () => {
  const writable = (dir: string): boolean => dir.startsWith("/home/u/") || dir.startsWith("/tmp/");
  it.each([
    ["equal", "/usr/bin:/bin", "/usr/bin:/bin", true],
    [
      "the agent put writable directories in front of emit's (Codex's arg0 and codex-path)",
      "/usr/bin:/bin",
      "/home/u/.codex/tmp/arg0/codex-arg0X:/home/u/.cache/codex-path:/usr/bin:/bin",
      true,
    ],
    ["emit's front holds a directory the user cannot write", "/usr/bin:/bin", "/opt/vendor/bin:/usr/bin:/bin", false],
    ["the daemon lacks the system directories before a writable one", "/home/u/.local/bin", "/usr/local/bin:/usr/bin:/home/u/.local/bin", false],
    ["the daemon has a directory in front", "/tmp/evil:/usr/bin:/bin", "/usr/bin:/bin", false],
    ["the same directories in another order", "/bin:/usr/bin", "/usr/bin:/bin", false],
    ["a relative entry in front", "/usr/bin", ".:/usr/bin", false],
    ["no PATH at all in the daemon", undefined, "/usr/bin", false],
  ] as const)("%s", (_name, theirs, mine, same) => {
    expect(samePath(theirs, mine, writable)).toBe(same);
  });
  it("without a way to tell what is writable, only an equal PATH", () => {
    expect(samePath("/usr/bin", "/home/u/bin:/usr/bin")).toBe(false);
    expect(samePath("/usr/bin", "/usr/bin")).toBe(true);
  });
});

describe("the auto socket's name carries the environment a daemon must share", () => {
  const host = {
    env: { HOME: "/home/u", XDG_RUNTIME_DIR: "/run/user/1000", PATH: "/usr/bin" },
    homeDir: () => "/home/u",
    cwd: () => "/home/u/p",
    executablePath: () => "/home/u/.local/bin/hookbox",
  };
  const locations = resolveLocations(host, {});
  const identity = identityOf(locations, "0.1.0+test", "/home/u");
  it("another binary file, another PATH or a loader variable: another auto socket; anything else: the same", () => {
    const at = (env: Record<string, string>, executable = "/home/u/.local/bin/hookbox"): string =>
      daemonSockets(locations, false, identity, { env, executablePath: () => executable }).auto;
    const base = at(host.env);
    expect(base).toMatch(/^\/run\/user\/1000\/hookbox\/auto-[0-9a-f]{16}\.sock$/);
    expect(at({ ...host.env, TERM: "xterm", NODE_ENV: "test" })).toBe(base);
    expect(at(host.env, "/usr/local/bin/hookbox")).not.toBe(base);
    expect(at({ ...host.env, PATH: "/opt/bin:/usr/bin" })).not.toBe(base);
    expect(at({ ...host.env, LD_LIBRARY_PATH: "/opt/lib" })).not.toBe(base);
    expect(trustedEnvironmentKey({ b: "x", PATH: "/p", LD_PRELOAD: "" })).toBe(
      JSON.stringify([
        ["LD_PRELOAD", ""],
        ["PATH", "/p"],
      ]),
    );
  });
});

describe("systemTierDaemonRefusal: under the system tier, a daemon of the user's decides only where the user's processes cannot trace it", () => {
  it.each([
    [undefined, /no Yama: any process of yours can/],
    ["0\n", /here 0/],
    ["1\n", /here 1/],
    ["2\n", undefined],
    ["3\n", undefined],
    ["garbage", /no Yama/],
  ])("ptrace_scope %j", (scope, expected) => {
    const refusal = systemTierDaemonRefusal(scope);
    if (expected) expect(refusal).toMatch(expected);
    else expect(refusal).toBeUndefined();
  });
});
