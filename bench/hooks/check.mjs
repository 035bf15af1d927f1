// The same secret-path check as a node command hook.
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const path = String(JSON.parse(input).tool_input?.file_path ?? "");
  if (/(^|\/)\.env(\.|$)|\.pem$|\.key$/.test(path)) {
    process.stdout.write(
      JSON.stringify({
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: `${path} holds secrets` },
      }),
    );
  }
});
