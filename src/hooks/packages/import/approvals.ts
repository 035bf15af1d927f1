import { isMap, parseDocument } from "yaml";
import type { OperatorFile } from "../../config/schema.ts";

/** A run grant the operator approves for one hook (hooks.<id>.permissions.run in hookbox.yaml). */
export interface RunApproval {
  readonly hookId: string;
  readonly cmd: string;
  readonly args: readonly string[];
}

/** The operator file with these approvals added (in memory: what the review is computed against). */
export function withApprovals(operator: OperatorFile, approvals: readonly RunApproval[]): OperatorFile {
  const hooks = { ...operator.hooks };
  for (const approval of approvals) {
    const current = Object.hasOwn(hooks, approval.hookId) ? hooks[approval.hookId] : undefined;
    const run = [...(current?.permissions?.run ?? []), { cmd: approval.cmd, args: [...approval.args], env: [] }];
    hooks[approval.hookId] = { ...current, permissions: { ...current?.permissions, run } };
  }
  return { ...operator, hooks };
}

/**
 * The operator file's text with the approvals added, comments and the rest kept (the YAML
 * document is edited, not regenerated). An approval already there is not added twice.
 */
export function addApprovals(text: string | undefined, approvals: readonly RunApproval[]): string {
  const doc = parseDocument(text ?? "");
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  for (const approval of approvals) {
    const path = ["hooks", approval.hookId, "permissions", "run"];
    const existing = doc.getIn(path, false) as unknown;
    const list = existing && typeof existing === "object" && "toJSON" in existing ? ((existing as { toJSON(): unknown }).toJSON() as unknown[]) : [];
    const entry = { cmd: approval.cmd, args: [...approval.args] };
    if (list.some((item) => JSON.stringify(item) === JSON.stringify(entry))) continue;
    doc.setIn(path, doc.createNode([...list, entry]));
  }
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}
