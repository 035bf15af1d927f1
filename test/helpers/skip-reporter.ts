import { relative } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";

/**
 * Prints, after the run, why each skipped test skipped: vitest's own reporters count skips but
 * do not show the note a test gives `ctx.skip(note)`, and a skip nobody can explain hides a
 * missing tool (COMMON: a test that needs an external tool skips only with a printed reason).
 * Grouped by reason, each reason once, with the tests it skipped.
 */
export default class SkipReasons implements Reporter {
  private root = process.cwd();
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.filtered = Boolean(vitest.config.testNamePattern);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const byReason = new Map<string, string[]>();
    const unexplained: string[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== "skipped" || test.options.mode === "todo") continue;
        const name = `${relative(this.root, module.moduleId)} > ${test.fullName}`;
        if (result.note) byReason.set(result.note, [...(byReason.get(result.note) ?? []), name]);
        else if (test.options.mode !== "skip" || !this.filtered) unexplained.push(name);
      }
    }
    if (byReason.size === 0 && unexplained.length === 0) return;
    const lines = ["", `Skipped, and why (${[...byReason.values()].reduce((sum, tests) => sum + tests.length, 0) + unexplained.length}):`];
    for (const [reason, tests] of byReason) {
      lines.push(`  ${reason}`);
      lines.push(...listed(tests));
    }
    if (unexplained.length > 0) {
      lines.push("  no reason given (it.skip, skipIf/runIf, or .only elsewhere):");
      lines.push(...listed(unexplained));
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}

function listed(tests: readonly string[]): string[] {
  const shown = tests.slice(0, 3).map((name) => `      ${name.length > 150 ? `${name.slice(0, 147)}...` : name}`);
  return tests.length > 3 ? [...shown, `      … and ${tests.length - 3} more`] : shown;
}
