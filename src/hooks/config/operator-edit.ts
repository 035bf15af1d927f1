import { isMap, parseDocument } from "yaml";

/**
 * The operator file's text with hooks.<id>.mode set (monitor) or taken out (the hook decides
 * again), comments and the rest kept: the YAML document is edited, not regenerated. A hook entry
 * left empty by taking its mode out is taken out too.
 */
export function withHookMode(text: string | undefined, id: string, mode: "monitor" | undefined): string {
  const doc = parseDocument(text ?? "");
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  if (mode !== undefined) {
    doc.setIn(["hooks", id, "mode"], mode);
  } else if (doc.hasIn(["hooks", id, "mode"])) {
    doc.deleteIn(["hooks", id, "mode"]);
    const entry = doc.getIn(["hooks", id]);
    if (isMap(entry) && entry.items.length === 0) doc.deleteIn(["hooks", id]);
    const hooks = doc.getIn(["hooks"]);
    if (isMap(hooks) && hooks.items.length === 0) doc.deleteIn(["hooks"]);
  }
  return doc.toString({ lineWidth: 0, flowCollectionPadding: true });
}
