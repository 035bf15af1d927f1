import { describe, expect, it } from "vitest";
import { resolveLocations, type LocationFlags } from "../../src/hooks/config/locations.ts";

const host = (env: Record<string, string>) => ({ env, homeDir: () => "/home/u", cwd: () => "/work/p" });
const where = (env: Record<string, string>, flags: LocationFlags = {}) => {
  const l = resolveLocations(host(env), flags);
  return { socket: l.socketPath, config: l.operatorFile };
};

describe("where the socket and the operator file are: flag, then variable, then default", () => {
  it.each([
    ["defaults", {}, {}, "/home/u/.hookbox/run/hookbox.sock", { path: "/home/u/.config/hookbox/hookbox.yaml", explicit: false }],
    [
      "XDG defaults",
      { XDG_RUNTIME_DIR: "/run/user/1", XDG_CONFIG_HOME: "/cfg" },
      {},
      "/run/user/1/hookbox/hookbox.sock",
      { path: "/cfg/hookbox/hookbox.yaml", explicit: false },
    ],
    [
      "the variables over the defaults",
      { XDG_RUNTIME_DIR: "/run/user/1", HOOKBOX_SOCKET: "/s/env.sock", HOOKBOX_CONFIG: "/c/env.yaml" },
      {},
      "/s/env.sock",
      { path: "/c/env.yaml", explicit: true },
    ],
    [
      "the flags over the variables",
      { HOOKBOX_SOCKET: "/s/env.sock", HOOKBOX_CONFIG: "/c/env.yaml" },
      { socket: "/s/flag.sock", config: "/c/flag.yaml" },
      "/s/flag.sock",
      { path: "/c/flag.yaml", explicit: true },
    ],
    [
      "relative paths from the working directory, as the flags'",
      { HOOKBOX_SOCKET: "run/h.sock", HOOKBOX_CONFIG: "h.yaml" },
      {},
      "/work/p/run/h.sock",
      { path: "/work/p/h.yaml", explicit: true },
    ],
    [
      "an empty variable is no variable",
      { HOOKBOX_SOCKET: "", HOOKBOX_CONFIG: "" },
      {},
      "/home/u/.hookbox/run/hookbox.sock",
      { path: "/home/u/.config/hookbox/hookbox.yaml", explicit: false },
    ],
  ])("%s", (_case, env, flags, socket, config) => {
    expect(where(env, flags)).toEqual({ socket, config });
  });
});
