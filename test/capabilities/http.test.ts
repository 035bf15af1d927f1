import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CapabilityIO, HttpGetRequest } from "../../src/platform/capability-io.ts";
import { nodeCapabilityIO } from "../../src/platform/node-capability-io.ts";
import { deniedWith, invoke, operator, prepare, rejection, testHost } from "./helpers.ts";

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? "/";
    if (path === "/redirect-same") return void response.writeHead(302, { location: "/target" }).end();
    if (path === "/redirect-other") return void response.writeHead(302, { location: `http://localhost:${port}/target` }).end();
    if (path === "/redirect-loop") return void response.writeHead(302, { location: "/redirect-loop" }).end();
    if (path === "/big") return void response.end("x".repeat(2 * 1024 * 1024));
    if (path === "/slow") return; // never answers
    response.setHeader("x-test", "1");
    response.end(`hello from ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** Grants the hook declares and the operator approves (the network is off by default). */
async function hook(net: string[], options: { deny?: string[]; io?: CapabilityIO; approve?: string[] } = {}) {
  const host = testHost(options.io ? { io: options.io } : {});
  const grants = await prepare(
    host,
    { net },
    { operator: operator({ hooks: { "test-hook": { permissions: { net: options.approve ?? net } } }, deny: { net: options.deny ?? [] } }) },
  );
  return (url: string, opts?: unknown) => invoke(host, grants, "/tmp").api("http.get", url, ...(opts ? [opts] : []));
}

describe("hook.http.get truth table", () => {
  it("permitted: a loopback address granted by address", async () => {
    const get = await hook(["127.0.0.1"]);
    expect(await get(`http://127.0.0.1:${port}/x`)).toMatchObject({ status: 200, body: "hello from /x", headers: { "x-test": "1" } });
  });

  it.each([["http://2130706433"], ["http://0x7f000001"], ["http://0177.0.0.1"], ["http://127.1"]])(
    "%s is 127.0.0.1: refused unless 127.0.0.1 is granted",
    async (base) => {
      const refused = await hook(["example.com"]);
      await deniedWith(
        refused(`${base}:${port}/`),
        /\(host 127\.0\.0\.1\) is not granted; to allow it add to its YAML: {2}permissions: \{ net: \["127\.0\.0\.1:\d+"\] \}/,
      );
      const granted = await hook(["127.0.0.1"]);
      expect(await granted(`${base}:${port}/`)).toMatchObject({ status: 200 });
    },
  );

  it("http://[::1]/ is refused unless ::1 is granted", async () => {
    const get = await hook(["127.0.0.1"]);
    await deniedWith(get(`http://[::1]:${port}/`), /hook\.http\.get\("http:\/\/\[::1\]:\d+\/"\) is not granted; .*net: \["\[::1\]:\d+"\]/);
  });

  it("deny wins over every spelling (GHSA-v8fw-85r8-5m23)", async () => {
    const get = await hook(["127.0.0.1", "::ffff:127.0.0.1"], { deny: ["127.0.0.1"] });
    for (const base of ["http://2130706433", "http://0x7f000001", "http://[::ffff:127.0.0.1]", "http://[::ffff:7f00:1]"]) {
      await deniedWith(get(`${base}:${port}/`), /refused by the operator: hookbox\.yaml deny\.net lists "127\.0\.0\.1"/);
    }
  });

  it("a name that resolves to loopback needs the address granted too", async () => {
    const byName = await hook(["localhost"]);
    await deniedWith(
      byName(`http://localhost:${port}/`),
      /localhost resolves to 127\.0\.0\.1, a loopback address, which a hook reaches only when granted by address/,
    );
    const withAddress = await hook(["localhost", "127.0.0.1"]);
    expect(await withAddress(`http://localhost:${port}/`)).toMatchObject({ status: 200 });
  });

  it("a redirect to the same host is followed; to another host it is refused", async () => {
    const get = await hook(["127.0.0.1", "localhost"]);
    expect(await get(`http://127.0.0.1:${port}/redirect-same`)).toMatchObject({ status: 200, body: "hello from /target" });
    await deniedWith(
      get(`http://127.0.0.1:${port}/redirect-other`),
      /the server redirects to another host \(localhost:\d+\); hooks never follow a redirect to another host/,
    );
    const loop = await rejection(get(`http://127.0.0.1:${port}/redirect-loop`));
    expect(loop).toMatchObject({ code: "http_failed" });
    expect(loop.message).toMatch(/more than 5 redirects/);
  });

  it("the body is capped at 1 MiB, the time by timeoutMs", async () => {
    const get = await hook(["127.0.0.1"]);
    expect(await rejection(get(`http://127.0.0.1:${port}/big`))).toMatchObject({ code: "too_large" });
    const started = performance.now();
    expect(await rejection(get(`http://127.0.0.1:${port}/slow`, { timeoutMs: 300 }))).toMatchObject({ code: "timeout" });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("no network by default: declared is not enough (air-gapped)", async () => {
    const host = testHost();
    const declared = await prepare(host, { net: ["127.0.0.1"] });
    await deniedWith(
      invoke(host, declared, "/tmp").api("http.get", `http://127.0.0.1:${port}/`),
      /outside the default net ceiling: hooks have no network unless the operator approves a host \(air-gapped by default\)/,
    );
    const none = await prepare(host, {});
    await deniedWith(
      invoke(host, none, "/tmp").api("http.get", "http://example.com/"),
      /is not granted; to allow it add to its YAML: {2}permissions: \{ net: \["example\.com"\] \}/,
    );
  });

  it.each([
    ["file:///etc/passwd", "TypeError", /only http: and https: URLs/],
    ["not a url", "TypeError", /is not a URL/],
    [`http://user:pw@127.0.0.1:PORT/`, "PermissionDenied", /URLs carrying credentials are refused/],
  ])("%s", async (url, name, message) => {
    const get = await hook(["127.0.0.1"]);
    const e = await rejection(get(url.replace("PORT", String(port))));
    expect(e.name).toBe(name);
    expect(e.message).toMatch(message);
  });
});

describe("hook.http.get and DNS", () => {
  /** Fake DNS answers, and a recorder instead of the network: what address would be connected to. */
  function fakeIO(answers: Record<string, string[]>, connected: HttpGetRequest[]): CapabilityIO {
    return {
      ...nodeCapabilityIO,
      resolveHost: async (name) => (answers[name] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
      httpGet: async (request) => {
        connected.push(request);
        return { status: 200, headers: {}, body: new TextEncoder().encode("ok"), truncated: false };
      },
    };
  }

  it("a name resolving to link-local (cloud metadata) is refused", async () => {
    const get = await hook(["metadata.test"], { io: fakeIO({ "metadata.test": ["169.254.169.254"] }, []) });
    await deniedWith(get("http://metadata.test/latest/meta-data/"), /metadata\.test resolves to 169\.254\.169\.254, a link-local address/);
  });

  it("one bad address among good ones refuses the whole name (DNS can rotate)", async () => {
    const get = await hook(["mixed.test"], { io: fakeIO({ "mixed.test": ["93.184.216.34", "10.0.0.5"] }, []) });
    await deniedWith(get("http://mixed.test/"), /resolves to 10\.0\.0\.5, a private address/);
  });

  it("deny.net applies to resolved addresses too", async () => {
    const get = await hook(["public.test"], { io: fakeIO({ "public.test": ["93.184.216.34"] }, []), deny: ["93.184.216.34"] });
    await deniedWith(get("http://public.test/"), /deny\.net lists "93\.184\.216\.34"/);
  });

  it("the connection goes to the checked address (no second lookup: DNS rebinding)", async () => {
    const connected: HttpGetRequest[] = [];
    const get = await hook(["public.test"], { io: fakeIO({ "public.test": ["93.184.216.34"] }, connected) });
    expect(await get("https://public.test/x?y=1")).toEqual({ status: 200, headers: {}, body: "ok" });
    expect(connected[0]).toMatchObject({
      url: "https://public.test/x?y=1",
      address: { address: "93.184.216.34", family: 4 },
      maxBodyBytes: 1024 * 1024,
    });
    expect(connected[0]?.headers).toMatchObject({ "accept-encoding": "identity" });
  });

  it("wildcards match subdomains, ports must match when given", async () => {
    const io = fakeIO({ "api.example.test": ["93.184.216.34"], "example.test": ["93.184.216.34"] }, []);
    const get = await hook(["*.example.test", "other.test:8443"], { io });
    expect(await get("http://api.example.test/")).toMatchObject({ status: 200 });
    await deniedWith(get("http://example.test/"), /is not granted/);
    await deniedWith(get("http://other.test:9000/"), /is not granted/);
  });
});
