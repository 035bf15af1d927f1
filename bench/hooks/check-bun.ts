// The same secret-path check, compiled to a standalone Bun binary (the fastest "command hook").
const event = JSON.parse(await Bun.stdin.text()) as { tool_input?: { file_path?: string } };
const path = String(event.tool_input?.file_path ?? "");
if (/(^|\/)\.env(\.|$)|\.pem$|\.key$/.test(path)) {
  await Bun.write(
    Bun.stdout,
    JSON.stringify({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: `${path} holds secrets` },
    }),
  );
}
export {};
