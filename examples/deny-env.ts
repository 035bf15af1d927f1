interface ToolEvent {
  tool_name: string;
  tool_input: { file_path?: string };
}

export default async function handler(event: ToolEvent) {
  const path = event.tool_input.file_path ?? "";
  if (/(^|\/)\.env(\.|$)/.test(path)) return { action: "deny", reason: `${path} holds secrets` };
  return { action: "continue" };
}
