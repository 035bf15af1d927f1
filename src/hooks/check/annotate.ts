import type ts from "typescript";

/** Text added to a handler before it is checked, at an offset of the original source. */
export interface Insertion {
  readonly at: number;
  readonly text: string;
  /** Where a problem found inside the added text is reported (default: `at`). */
  readonly reportAt?: number;
}

type HandlerFunction = ts.FunctionDeclaration | ts.FunctionExpression | ts.ArrowFunction;

/**
 * Hold the default export to the handler contract even where its author wrote no types:
 * `export default (event) => ({ action: "dny" })` infers `string`, which nothing would flag.
 * A default-exported function gets the contract's parameter and return types where it has none
 * (a bad return is then reported at its own line), and the export is checked to satisfy
 * HookHandler (a parameter typed against the contract is reported at the export). Insertions
 * only: every original character keeps its place, so positions map back (originalOffset).
 */
export function contractInsertions(api: typeof ts, file: ts.SourceFile): Insertion[] | "no-default-export" {
  const sorted = (insertions: Insertion[]): Insertion[] => insertions.sort((a, b) => a.at - b.at);
  for (const statement of file.statements) {
    if (api.isExportAssignment(statement) && !statement.isExportEquals) {
      let expression = statement.expression;
      while (api.isParenthesizedExpression(expression)) expression = expression.expression;
      if (api.isIdentifier(expression)) {
        const declared = functionNamed(api, file, expression.text);
        return sorted([...(declared ? functionInsertions(api, declared, file) : []), { at: expression.end, text: " satisfies HookHandler" }]);
      }
      const typed = api.isArrowFunction(expression) || api.isFunctionExpression(expression) ? functionInsertions(api, expression, file) : [];
      const start = statement.expression.getStart(file);
      return sorted([{ at: start, text: "(" }, ...typed, { at: statement.expression.end, text: ") satisfies HookHandler", reportAt: start }]);
    }
    if (api.isFunctionDeclaration(statement) && isDefaultExport(api, statement)) return sorted(declarationInsertions(api, statement, file));
    if (api.isExportDeclaration(statement) && statement.exportClause && api.isNamedExports(statement.exportClause)) {
      if (statement.exportClause.elements.some((element) => element.name.text === "default")) return [];
    }
  }
  return "no-default-export";
}

/** `export default function [name](…) {…}`: typed, then `name satisfies HookHandler;` after it (an anonymous one is given a name). */
function declarationInsertions(api: typeof ts, fn: ts.FunctionDeclaration, file: ts.SourceFile): Insertion[] {
  const keyword = fn.getChildren(file).find((child) => child.kind === api.SyntaxKind.FunctionKeyword) as ts.Node;
  const named = fn.name ? [] : [{ at: (fn.asteriskToken ?? keyword).end, text: " __hookbox_default" }];
  const name = fn.name?.text ?? "__hookbox_default";
  return [
    ...named,
    ...functionInsertions(api, fn, file),
    { at: fn.end, text: `\n;${name} satisfies HookHandler;`, reportAt: (fn.name ?? keyword).getStart(file) },
  ];
}

/** `function handler(…) {…}` or `const handler = (…) => …` at the top level, for `export default handler`. */
function functionNamed(api: typeof ts, file: ts.SourceFile, name: string): HandlerFunction | undefined {
  for (const statement of file.statements) {
    if (api.isFunctionDeclaration(statement) && statement.name?.text === name && statement.body) return statement;
    if (!api.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (
        api.isIdentifier(declaration.name) &&
        declaration.name.text === name &&
        !declaration.type &&
        init &&
        (api.isArrowFunction(init) || api.isFunctionExpression(init))
      )
        return init;
    }
  }
  return undefined;
}

function isDefaultExport(api: typeof ts, node: ts.FunctionDeclaration): boolean {
  const modifiers = api.getModifiers(node) ?? [];
  return modifiers.some((m) => m.kind === api.SyntaxKind.ExportKeyword) && modifiers.some((m) => m.kind === api.SyntaxKind.DefaultKeyword);
}

function functionInsertions(api: typeof ts, fn: HandlerFunction, file: ts.SourceFile): Insertion[] {
  const insertions: Insertion[] = [];
  const contract = ["HookEvent", "Hook"];
  fn.parameters.forEach((parameter, index) => {
    const type = contract[index];
    if (!parameter.type && type && !parameter.dotDotDotToken)
      insertions.push({ at: (parameter.questionToken ?? parameter.name).end, text: `: ${type}` });
  });
  const async = (api.getModifiers(fn) ?? []).some((m) => m.kind === api.SyntaxKind.AsyncKeyword);
  const returns = fn.type ? "" : async ? ": Promise<HookResult | void>" : ": ReturnType<HookHandler>";
  const openParen = fn.getChildren(file).find((child) => child.kind === api.SyntaxKind.OpenParenToken);
  if (!openParen) {
    // `event => …`: typed, the parameter needs parentheses.
    const parameter = fn.parameters[0];
    if (!parameter) return insertions;
    return [
      { at: parameter.getStart(file), text: "(" },
      { at: parameter.name.end, text: `${insertions[0]?.text ?? ""})${returns}` },
    ];
  }
  const closeParen = fn.getChildren(file).find((child) => child.kind === api.SyntaxKind.CloseParenToken);
  if (returns && closeParen) insertions.push({ at: closeParen.end, text: returns });
  return insertions;
}

/** Apply insertions (sorted by offset). */
export function applyInsertions(source: string, insertions: readonly Insertion[]): string {
  let out = "";
  let last = 0;
  for (const insertion of insertions) {
    out += source.slice(last, insertion.at) + insertion.text;
    last = insertion.at;
  }
  return out + source.slice(last);
}

/** An offset in the checked text as an offset in the original source (inside added text: where it was added). */
export function originalOffset(checkedOffset: number, insertions: readonly Insertion[]): number {
  let shift = 0;
  for (const insertion of insertions) {
    const start = insertion.at + shift;
    if (checkedOffset < start) break;
    if (checkedOffset < start + insertion.text.length) return insertion.reportAt ?? insertion.at;
    shift += insertion.text.length;
  }
  return checkedOffset - shift;
}
