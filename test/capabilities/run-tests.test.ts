import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectFramework, parseTestOutput } from "../../src/capabilities/run/test-output.ts";
import { deniedWith, invoke, operator, prepare, rejection, removeDir, tempDir, testHost } from "./helpers.ts";

const fixture = (name: string) => readFileSync(resolve(import.meta.dirname, "fixtures", name), "utf8");

describe("test output parsers (the seed engine's three runners)", () => {
  it("pytest: FAILED lines and the summary", () => {
    expect(parseTestOutput("pytest", fixture("pytest-output.txt"))).toEqual({
      failures: ["test_p.py::test_bad", "test_p.py::TestK::test_m"],
      testCount: 4,
    });
  });

  it("pytest without the short summary: the FAILURES headers", () => {
    const text = fixture("pytest-output.txt").replace(/^FAILED .*\n/gm, "");
    expect(parseTestOutput("pytest", text).failures).toEqual(["test_bad", "TestK.test_m"]);
  });

  it("pytest -q summary line", () => {
    expect(parseTestOutput("pytest", "..F\n1 failed, 2 passed, 1 error in 0.03s\n")).toEqual({ failures: [], testCount: 4 });
  });

  it("jest: ● names, deduplicated, and the Tests: total", () => {
    expect(parseTestOutput("jest", fixture("jest-output.txt"))).toEqual({ failures: ["math › adds", "top level › throws"], testCount: 5 });
  });

  it("vitest: FAIL lines and the Tests (n) total", () => {
    expect(parseTestOutput("vitest", fixture("vitest-output.txt"))).toEqual({
      failures: ["a.test.ts > math > adds", "a.test.ts > top level fails"],
      testCount: 5,
    });
  });

  it.each([
    [["pytest", "-q"], "", "pytest"],
    [["/usr/bin/python3", "-m", "pytest"], "", "pytest"],
    [["npx", "vitest", "run"], "", "vitest"],
    [["npx", "jest"], "", "jest"],
    [["make", "test"], fixture("vitest-output.txt"), "vitest"],
    [["make", "test"], fixture("jest-output.txt"), "jest"],
    [["make", "test"], fixture("pytest-output.txt"), "pytest"],
    [["make", "test"], "ok\n", undefined],
  ])("detects %j", (argv, output, framework) => expect(detectFramework(argv, output)).toBe(framework));
});

describe("hook.runTests on real runners", () => {
  let ws: string;
  beforeAll(() => {
    ws = tempDir("hookbox-tests-");
    writeFileSync(
      `${ws}/a.test.ts`,
      'import { it, expect } from "vitest";\nit("adds", () => expect(1 + 1).toBe(3));\nit("ok", () => expect(1).toBe(1));\n',
    );
    writeFileSync(`${ws}/test_p.py`, "def test_ok():\n    assert True\n\ndef test_bad():\n    assert 1 == 2\n");
    writeFileSync(`${ws}/package.json`, "{}");
  });
  afterAll(() => removeDir(ws));

  it("vitest", async () => {
    const vitest = resolve(import.meta.dirname, "../../node_modules/.bin/vitest");
    const host = testHost();
    const grants = await prepare(host, { run: [{ cmd: vitest, args: ["run", "**"], env: [] }] });
    const result = (await invoke(host, grants, ws).api("runTests", [vitest, "run", "a.test.ts"], {
      framework: "vitest",
      timeoutMs: 60_000,
    })) as Record<string, unknown>;
    expect(result).toMatchObject({ passed: false, failures: ["a.test.ts > adds"], testCount: 2, exitCode: 1, timedOut: false, framework: "vitest" });
    expect(result.output).toContain("Test Files");
  });

  it("pytest, from a command line", async () => {
    let pytest: string;
    try {
      pytest = execFileSync("sh", ["-c", "pyenv which pytest 2>/dev/null || command -v pytest"]).toString().trim();
    } catch {
      return; // no pytest on this machine
    }
    const host = testHost();
    const grants = await prepare(host, { run: [{ cmd: pytest, args: ["**"], env: [] }] });
    const result = await invoke(host, grants, ws).api("runTests", `${pytest} -q -p no:cacheprovider test_p.py`);
    expect(result).toMatchObject({ passed: false, failures: ["test_p.py::test_bad"], testCount: 2, exitCode: 1, framework: "pytest" });
  });

  it("needs a run grant like any command; shell syntax in the command line is an error", async () => {
    const host = testHost();
    const grants = await prepare(host, {});
    await deniedWith(invoke(host, grants, ws).api("runTests", "pytest -q"), /permissions: \{ run: \[\{ cmd: pytest, args: \["-q"\] \}\] \}/);
    const e = await rejection(invoke(host, grants, ws).api("runTests", "pytest -q; curl evil"));
    expect(e).toMatchObject({ name: "TypeError", code: "invalid_argument" });
    expect(e.message).toMatch(/unquoted ";" at column 10/);
  });

  it("an interpreter-launched runner (npx) needs the operator", async () => {
    const host = testHost();
    const grants = await prepare(host, { run: [{ cmd: "npx", args: ["vitest", "run"], env: [] }] }, { operator: operator() });
    await deniedWith(invoke(host, grants, ws).api("runTests", "npx vitest run"), /npx is a package runner/);
  });
});
