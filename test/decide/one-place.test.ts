import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The decide wing's "one place" rules (issue 29), checked over the syntax of every file of src/:
 * sandbox executors are constructed in one file, run and decision records are built in one file,
 * and the operator file's `fail_closed` is read in one function. Each rule is also run on a
 * deliberate violation, so a rule that stopped seeing anything would fail here too.
 */
const ROOT = resolve(import.meta.dirname, "../..");

const EXECUTOR = "src/decide/executor.ts";
const RECORDS = "src/decide/audit/build.ts";
const FAIL_CLOSED = "src/decide/rule.ts";

interface Hit {
  readonly file: string;
  readonly what: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

const nameOf = (name: ts.PropertyName | ts.BindingName | undefined): string | undefined =>
  name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;

function properties(literal: ts.ObjectLiteralExpression): Map<string, ts.Expression | undefined> {
  const found = new Map<string, ts.Expression | undefined>();
  for (const property of literal.properties) {
    if (ts.isPropertyAssignment(property)) found.set(nameOf(property.name) ?? "", property.initializer);
    else if (ts.isShorthandPropertyAssignment(property)) found.set(property.name.text, undefined);
  }
  return found;
}

/** Where a sandbox executor is constructed: a pool, an engine, or a worker spawned. */
function executorsIn(source: ts.SourceFile): string[] {
  const found: string[] = [];
  walk(source, (node) => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && ["SandboxPool", "SandboxEngine"].includes(node.expression.text))
      found.push(`new ${node.expression.text}(…)`);
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const { expression, name } = node.expression;
      if (name.text === "create" && ts.isIdentifier(expression) && expression.text === "SandboxEngine") found.push("SandboxEngine.create(…)");
      if (name.text === "spawnWorker" || name.text === "spawnThreadWorker") found.push(`.${name.text}(…)`);
    }
  });
  return found;
}

/** Where an audit run or decision record is written out as a literal, or its version stamped. */
function recordsIn(source: ts.SourceFile): string[] {
  const found: string[] = [];
  walk(source, (node) => {
    if (ts.isIdentifier(node) && node.text === "AUDIT_VERSION" && !isImportOrExport(node)) found.push("AUDIT_VERSION");
    if (!ts.isObjectLiteralExpression(node)) return;
    const props = properties(node);
    const kind = props.get("kind");
    if (kind && ts.isStringLiteral(kind) && ["run", "decision"].includes(kind.text) && props.has("event_id"))
      found.push(`a record literal (kind: "${kind.text}")`);
    // The rest of a record on top of a base built elsewhere: { ...base, status, …, started_at, completed_at }.
    if (node.properties.some(ts.isSpreadAssignment) && props.has("started_at") && props.has("completed_at"))
      found.push("a record literal (started_at, completed_at)");
  });
  return found;
}

/** The name being imported, exported or declared: not a use of it. */
function isImportOrExport(node: ts.Identifier): boolean {
  const parent = node.parent;
  return ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || (ts.isVariableDeclaration(parent) && parent.name === node);
}

/** Where `fail_closed` is read: obj.fail_closed, obj["fail_closed"], { fail_closed } = obj. */
function failClosedReadsIn(source: ts.SourceFile): string[] {
  const found: string[] = [];
  walk(source, (node) => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === "fail_closed") found.push(".fail_closed");
    if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression) && node.argumentExpression.text === "fail_closed")
      found.push('["fail_closed"]');
    if (ts.isBindingElement(node) && (nameOf(node.propertyName) ?? nameOf(node.name)) === "fail_closed") found.push("{ fail_closed }");
  });
  return found;
}

function hits(find: (source: ts.SourceFile) => string[], allowed: readonly string[], files: readonly { file: string; text: string }[]): Hit[] {
  return files.flatMap(({ file, text }) => {
    if (allowed.includes(file)) return [];
    const source = parse(file, text);
    return find(source).map((what) => ({ file, what }));
  });
}

const files = sourceFiles(join(ROOT, "src")).map((path) => ({ file: relative(ROOT, path), text: readFileSync(path, "utf8") }));

describe("one place each (issue 29, the decide wing)", () => {
  it("reads every file of src/", () => {
    expect(files.length).toBeGreaterThan(300);
    for (const file of [EXECUTOR, RECORDS, FAIL_CLOSED]) expect(files.map((f) => f.file)).toContain(file);
  });

  it(`sandbox executors (pools, engines, workers) are constructed only in ${EXECUTOR}`, () => {
    expect(hits(executorsIn, [EXECUTOR], files)).toEqual([]);
    // What it is there for.
    expect(executorsIn(parse(EXECUTOR, files.find((f) => f.file === EXECUTOR)?.text ?? ""))).toEqual(
      expect.arrayContaining(["new SandboxPool(…)", ".spawnWorker(…)", ".spawnThreadWorker(…)"]),
    );
  });

  it(`run and decision records are built only in ${RECORDS} (the audit sink stamps its chain marker, readers check the version)`, () => {
    expect(hits(recordsIn, [RECORDS, "src/decide/audit/record.ts", "src/decide/audit/sink.ts", "src/decide/audit/read.ts"], files)).toEqual([]);
    const sink = files.find((f) => f.file === "src/decide/audit/sink.ts")?.text ?? "";
    // The sink's one literal is the chain marker, not a run or a decision.
    expect(recordsIn(parse("sink.ts", sink)).filter((what) => what !== "AUDIT_VERSION")).toEqual([]);
  });

  it(`the operator file's fail_closed is read only in ${FAIL_CLOSED} (failClosedBy)`, () => {
    expect(hits(failClosedReadsIn, [FAIL_CLOSED], files)).toEqual([]);
    expect(failClosedReadsIn(parse(FAIL_CLOSED, files.find((f) => f.file === FAIL_CLOSED)?.text ?? ""))).toEqual([".fail_closed"]);
  });

  it("each rule finds a deliberate violation", () => {
    const violation = parse(
      "violation.ts",
      `
      const pool = new SandboxPool({ spawn: () => host.sandbox.spawnWorker(), size: 1 });
      const engine = await SandboxEngine.create({ wasmBytes });
      const thread = host.sandbox.spawnThreadWorker();
      const run = { v: AUDIT_VERSION, kind: "run", id, event_id: eventId, hook_id: "h" };
      const decision = { v: 1, kind: "decision", id, event_id: eventId };
      const tail = { ...base, status: "skipped", duration_ms: 0, started_at: time, completed_at: time };
      const strict = operator.fail_closed || snapshot.operator["fail_closed"];
      const { fail_closed } = operator;
      const notice = { v: 1, kind: "run", hook_id: "h" };
      `,
    );
    expect(executorsIn(violation)).toEqual(["new SandboxPool(…)", ".spawnWorker(…)", "SandboxEngine.create(…)", ".spawnThreadWorker(…)"]);
    expect(recordsIn(violation)).toEqual([
      'a record literal (kind: "run")',
      "AUDIT_VERSION",
      'a record literal (kind: "decision")',
      "a record literal (started_at, completed_at)",
    ]);
    expect(failClosedReadsIn(violation)).toEqual([".fail_closed", '["fail_closed"]', "{ fail_closed }"]);
  });
});
