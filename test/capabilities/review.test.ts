import { describe, expect, it } from "vitest";
import { formatReview, type GrantReview } from "../../src/capabilities/index.ts";
import type { PermissionsConfig } from "../../src/capabilities/grants/schema.ts";
import type { OperatorFile } from "../../src/hooks/config/schema.ts";
import { deniedWith, invoke, operator, prepare, tempDir, testHost } from "./helpers.ts";

const HOME = "/home/alice";

async function review(permissions: Partial<PermissionsConfig>, op: OperatorFile = operator()): Promise<GrantReview[]> {
  const host = testHost({ home: HOME });
  return host.review(await prepare(host, permissions, { hookId: "h", operator: op })).lines as GrantReview[];
}

async function status(permissions: Partial<PermissionsConfig>, op?: OperatorFile): Promise<string[]> {
  return (await review(permissions, op)).map((line) => `${line.status} ${line.grant}`);
}

/**
 * The review is the static form of the per-access rule (declared ∩ approved ∩ ceiling − deny):
 * each declared grant is granted, capped (part of it cut) or refused, with why and what would
 * allow it. Truth tables with near misses, as for the matchers.
 */
describe("review: read", () => {
  it.each([
    ["${workspace}/**", "granted"],
    ["${workspace}/src/**", "granted"],
    ["${workspace}/README.md", "granted"],
    ["${home}/.config/hookbox/**", "granted"],
    ["${home}/.config/hookbox/x.yaml", "granted"],
    ["${home}/.ssh/**", "refused"],
    ["${home}/.config/hookboxX/**", "refused"],
    ["/etc/hosts", "refused"],
    ["${home}/**", "capped"],
    ["${home}/.config/**", "capped"],
    ["/home/alice/.config/hookbox/**", "granted"],
    ["/**", "capped"],
  ])("%s under the default ceiling: %s", async (grant, expected) => {
    expect(await status({ read: [grant] })).toEqual([`${expected} read ${grant}`]);
  });

  it("a refused grant says which rule, and exactly what would allow it", async () => {
    const [line] = await review({ read: ["${home}/.ssh/**"] });
    expect(line).toMatchObject({
      status: "refused",
      why: expect.stringContaining("refused by the default read ceiling: by default hooks read only ${workspace}/** and ${home}/.config/hookbox/**"),
    });
    expect(line?.allow).toBe(
      'the operator can approve it for this hook in hookbox.yaml:  hooks: { h: { permissions: { read: ["${home}/.ssh/**"] } } }',
    );
    expect(formatReview(line as GrantReview)).toMatch(
      /^REFUSED  read \$\{home\}\/\.ssh\/\*\*: read any file under \$\{home\}\/\.ssh in your home directory — refused/,
    );
  });

  it("an approval lifts the default ceiling for what it lists; deny wins over it; an explicit ceiling is not lifted", async () => {
    const approved = operator({ hooks: { h: { permissions: { read: ["${home}/.ssh/**"] } } } });
    expect(await status({ read: ["${home}/.ssh/**", "${workspace}/**"] }, approved)).toEqual([
      "granted read ${home}/.ssh/**",
      "refused read ${workspace}/**",
    ]);
    const denied = operator({ hooks: { h: { permissions: { read: ["${home}/.ssh/**"] } } }, deny: { read: ["${home}/.ssh/**"] } });
    expect((await review({ read: ["${home}/.ssh/**"] }, denied))[0]).toMatchObject({
      status: "refused",
      why: expect.stringContaining("deny.read lists"),
    });
    const ceiling = operator({ hooks: { h: { permissions: { read: ["${home}/.ssh/**"] } } }, ceilings: { read: ["${workspace}/**"] } });
    expect((await review({ read: ["${home}/.ssh/**"] }, ceiling))[0]).toMatchObject({
      status: "refused",
      why: expect.stringContaining("outside the operator's ceiling"),
    });
  });

  it("a deny rule that reaches into a grant caps it", async () => {
    const [line] = await review({ read: ["${workspace}/**"] }, operator({ deny: { read: ["/**/.env"] } }));
    expect(line).toMatchObject({ status: "capped", why: 'except what hookbox.yaml deny.read "/**/.env" refuses' });
  });
});

describe("review: run, env, net, flags", () => {
  it("run: an ordinary tool is granted, a shell is refused by default, an unknown program is inert", async () => {
    expect(
      await status({
        run: [
          { cmd: "git", args: ["diff", "*"], env: [] },
          { cmd: "sh", args: ["-c", "make"], env: [] },
          { cmd: "no-such-tool-hookbox", args: ["**"], env: [] },
        ],
      }),
    ).toEqual(["granted run git diff *", "refused run sh -c make", "refused run no-such-tool-hookbox **"]);
  });

  it.each([
    [["diff", "**"], ["diff", "--stat", "*"], "granted"],
    [["diff", "*"], ["diff", "--stat"], "granted"],
    [["diff", "*"], ["diff", "**"], "capped"],
    [["log"], ["diff", "**"], "refused"],
    [["diff"], ["diff", "*"], "refused"],
  ])("run: approval %j for a grant %j: %s", async (approved, declared, expected) => {
    const op = operator({ hooks: { h: { permissions: { run: [{ cmd: "git", args: approved, env: [] }] } } } });
    expect((await review({ run: [{ cmd: "git", args: declared, env: [] }] }, op))[0]?.status).toBe(expected);
  });

  it("run: an approved shell command line is granted; deny.run refuses it whatever was approved", async () => {
    const approved = operator({ hooks: { h: { permissions: { run: [{ cmd: "sh", args: ["-c", "echo hi"], env: [] }] } } } });
    expect(await status({ run: [{ cmd: "sh", args: ["-c", "echo hi"], env: [] }] }, approved)).toEqual(['granted run sh -c "echo hi"']);
    expect(await status({ run: [{ cmd: "git", args: ["**"], env: [] }] }, operator({ deny: { run: ["git"] } }))).toEqual(["refused run git **"]);
  });

  it("env: secrets need the operator; a prefix may hold some", async () => {
    expect(await status({ env: ["LANG_HINT", "GITHUB_TOKEN", "AWS_*", "MY_*"] })).toEqual([
      "granted env LANG_HINT",
      "refused env GITHUB_TOKEN",
      "refused env AWS_*",
      "capped env MY_*",
    ]);
    expect(await status({ env: ["GITHUB_TOKEN"] }, operator({ hooks: { h: { permissions: { env: ["GITHUB_*"] } } } }))).toEqual([
      "granted env GITHUB_TOKEN",
    ]);
  });

  it("net: nothing by default; an approved wildcard covers its subdomains, not a port it does not name", async () => {
    expect(await status({ net: ["api.github.com"] })).toEqual(["refused net api.github.com"]);
    const op = operator({ hooks: { h: { permissions: { net: ["*.github.com:443"] } } } });
    expect(await status({ net: ["api.github.com:443", "api.github.com", "github.com"] }, op)).toEqual([
      "granted net api.github.com:443",
      "capped net api.github.com",
      "refused net github.com",
    ]);
  });

  it("flags: granted as declared, refused when the operator turns them off", async () => {
    expect(await status({ inject_context: true, store: true })).toEqual(["granted inject_context", "granted store"]);
    expect(await status({ inject_context: true }, operator({ ceilings: { inject_context: false } }))).toEqual(["refused inject_context"]);
  });
});

describe("an untrusted project hook gets nothing", () => {
  it("every call is refused naming hookbox trust; it cannot inject context; the review keeps what it would grant", async () => {
    const workspace = tempDir();
    const host = testHost({ home: HOME });
    const result = await host.prepare(
      {
        hookId: "h",
        file: "p/.hookbox/hooks/h.yaml",
        permissions: { read: ["${workspace}/**"], run: [], env: [], net: [], inject_context: true, store: false, modify: [], notify: false, llm: [] },
        origin: "project",
        untrusted: { project: "/p" },
      },
      operator(),
    );
    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(host.mayInjectContext(result.grants)).toBe(false);
    expect(host.review(result.grants)).toEqual({
      untrusted: { project: "/p" },
      lines: [
        expect.objectContaining({ status: "granted", grant: "read ${workspace}/**" }),
        expect.objectContaining({ status: "granted", grant: "inject_context" }),
      ],
    });
    const { api, caps } = invoke(host, result.grants, workspace);
    await deniedWith(
      api("readFile", "README.md"),
      /hook h: hook\.readFile\("README\.md"\) is refused: this project's hooks \(\/p\/\.hookbox\/hooks\) are not trusted yet.*run `hookbox trust` in \/p/,
    );
    expect(caps.hostCalls[0]).toMatchObject({ outcome: "denied", capability: "readFile" });
  });
});
