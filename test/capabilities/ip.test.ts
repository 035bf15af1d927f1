import { describe, expect, it } from "vitest";
import { canonicalIp, parseIpv6, specialAddress } from "../../src/capabilities/network/ip.ts";
import { hostKey, parseHostRule } from "../../src/capabilities/network/policy.ts";

describe("special-purpose addresses (granted only by address)", () => {
  it.each([
    ["127.0.0.1", /loopback/],
    ["127.255.0.9", /loopback/],
    ["10.1.2.3", /private/],
    ["172.16.0.1", /private/],
    ["172.31.255.255", /private/],
    ["192.168.1.1", /private/],
    ["169.254.169.254", /link-local/],
    ["100.64.0.1", /carrier-grade/],
    ["0.0.0.0", /unspecified/],
    ["224.0.0.1", /multicast/],
    ["255.255.255.255", /broadcast/],
    ["240.0.0.1", /reserved/],
    ["::1", /loopback/],
    ["::", /unspecified/],
    ["fe80::1", /link-local/],
    ["fd00::1", /unique-local/],
    ["ff02::1", /multicast/],
    ["::ffff:127.0.0.1", /loopback/],
    ["::ffff:7f00:1", /loopback/],
    ["::ffff:169.254.169.254", /link-local/],
    ["64:ff9b::a9fe:a9fe", /link-local/],
    ["2002:7f00:1::", /loopback/],
    ["2001:db8::1", /documentation/],
  ])("%s is special", (address, kind) => expect(specialAddress(address)).toMatch(kind));

  it.each([
    ["8.8.8.8"],
    ["172.32.0.1"],
    ["172.15.255.255"],
    ["169.255.0.1"],
    ["100.128.0.1"],
    ["11.0.0.1"],
    ["2606:4700::1111"],
    ["::ffff:8.8.8.8"],
    ["2001:4860:4860::8888"],
  ])("%s is public", (address) => expect(specialAddress(address)).toBeUndefined());

  it.each([
    ["::1", 16],
    ["1:2:3:4:5:6:7:8", 16],
    ["::ffff:1.2.3.4", 16],
    ["1::", 16],
  ])("parses %s", (text, length) => expect(parseIpv6(text)).toHaveLength(length));
  it.each([["1:2:3:4:5:6:7"], ["1::2::3"], ["12345::"], ["::1.2.3"], ["1:2:3:4:5:6:7:8:9"]])("rejects %s", (text) =>
    expect(parseIpv6(text)).toBeUndefined(),
  );
});

describe("host spellings are normalised before any check", () => {
  const viaUrl = (url: string) => hostKey(new URL(url).hostname);
  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://[::1]/", "::1"],
    ["http://[0:0:0:0:0:0:0:1]/", "::1"],
    ["http://[::ffff:127.0.0.1]/", "127.0.0.1"],
    ["http://EXAMPLE.com./", "example.com"],
  ])("%s → %s", (url, host) => expect(viaUrl(url)).toBe(host));

  it.each([
    ["example.com", { host: "example.com", wildcard: false, port: undefined }],
    ["*.example.com", { host: "example.com", wildcard: true, port: undefined }],
    ["example.com:8443", { host: "example.com", wildcard: false, port: 8443 }],
    ["127.0.0.1", { host: "127.0.0.1", wildcard: false, port: undefined }],
    ["::1", { host: "::1", wildcard: false, port: undefined }],
    ["[::1]:8080", { host: "::1", wildcard: false, port: 8080 }],
    ["0x7f000001", { host: "127.0.0.1", wildcard: false, port: undefined }],
  ])("net grant %s", (raw, rule) => expect(parseHostRule(raw)).toEqual({ ok: true, rule: { raw, ...rule } }));

  it.each([["*.127.0.0.1"], ["example.com:99999"], ["exa mple.com"]])("bad net grant %s", (raw) => expect(parseHostRule(raw).ok).toBe(false));

  it("canonicalIp", () => {
    expect(canonicalIp("0:0:0:0:0:0:0:1")).toBe("::1");
    expect(canonicalIp("example.com")).toBeUndefined();
    expect(canonicalIp("::ffff:7f00:1")).toBe("127.0.0.1");
  });
});
