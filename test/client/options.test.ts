// hookbox/client's options, resolved once: the socket found as `hookbox emit` finds it, the TCP
// listener only on loopback and only with a token, and impossible combinations refused.
import { describe, expect, it } from "vitest";
import { resolveOptions, type ClientOptions } from "../../src/client/options.ts";

const place = (env: Record<string, string> = {}) => ({ env, homeDir: "/home/u", cwd: "/work/p" });

describe("resolveOptions", () => {
  it.each([
    ["XDG_RUNTIME_DIR", {}, { XDG_RUNTIME_DIR: "/run/user/1" }, "/run/user/1/hookbox/hookbox.sock"],
    ["no XDG_RUNTIME_DIR", {}, {}, "/home/u/.hookbox/run/hookbox.sock"],
    ["HOOKBOX_SOCKET wins", {}, { HOOKBOX_SOCKET: "/tmp/h.sock", XDG_RUNTIME_DIR: "/run/user/1" }, "/tmp/h.sock"],
    ["HOOKBOX_SOCKET relative: from the working directory", {}, { HOOKBOX_SOCKET: "run/h.sock" }, "/work/p/run/h.sock"],
    ["empty HOOKBOX_SOCKET is unset", {}, { HOOKBOX_SOCKET: "", XDG_RUNTIME_DIR: "/run/user/1" }, "/run/user/1/hookbox/hookbox.sock"],
    ["socket option wins", { socket: "/s.sock" }, { HOOKBOX_SOCKET: "/tmp/h.sock" }, "/s.sock"],
  ] as [string, ClientOptions, Record<string, string>, string][])("%s", (_case, options, env, socket) => {
    expect(resolveOptions(options, place(env)).target).toEqual({ unix: socket });
  });

  it("loopback TCP with the token as a bearer header", () => {
    expect(resolveOptions({ url: "http://127.0.0.1:8787", token: "t" }, place())).toMatchObject({
      target: { hostname: "127.0.0.1", port: 8787 },
      headers: { authorization: "Bearer t" },
    });
    expect(resolveOptions({ url: "http://[::1]:9/", token: "t" }, place()).target).toEqual({ hostname: "::1", port: 9 });
    expect(resolveOptions({ url: "http://localhost:1", token: "t" }, place()).target).toEqual({ hostname: "localhost", port: 1 });
  });

  it.each([
    [{ url: "http://127.0.0.1:8787" }, /bearer token/],
    [{ url: "http://127.0.0.2:8787", token: "t" }, /loopback/],
    [{ url: "http://127.0.0.1.evil.com:80", token: "t" }, /loopback/],
    [{ url: "https://127.0.0.1:8787", token: "t" }, /loopback/],
    [{ url: "http://127.0.0.1:8787/v1", token: "t" }, /loopback/],
    [{ url: "http://127.0.0.1:8787", token: "t", socket: "/s" }, /not both/],
    [{ timeoutMs: 0 }, /timeoutMs/],
    [{ timeoutMs: 1.5 }, /timeoutMs/],
    [{ retryDelayMs: -1 }, /retryDelayMs/],
  ] as [ClientOptions, RegExp][])("refuses %j", (options, message) => {
    expect(() => resolveOptions(options, place())).toThrow(message);
  });
});
