// A Claude Agent SDK agent whose every hook event is decided by Hookbox (hookbox/agent-sdk):
// `node guarded-agent.mjs "tidy up the project"` in the project directory.
//
// The agent may use Write, Edit, Read and Bash without asking; Hookbox's hooks (the operator
// file's standard guards, the project's .hookbox/hooks) run before each call and may deny it (the
// reason becomes the tool's result), rewrite its input, or ask the user (`hookbox approvals`,
// `hookbox approve <id>`). When no Hookbox daemon answers, tool calls are refused: start one with
// `hookbox serve`, or install the project's hooks (`hookbox install-agent claude`) and use
// settingSources: ["project"] instead, whose `hookbox emit` starts a daemon itself.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { hookboxHooks } from "hookbox/agent-sdk";

const prompt = process.argv[2] ?? "Say hello.";

for await (const message of query({
  prompt,
  options: {
    cwd: process.cwd(),
    // No settings files: Hookbox decides through these hooks alone.
    settingSources: [],
    allowedTools: ["Write", "Edit", "Read", "Bash"],
    hooks: hookboxHooks(),
  },
})) {
  if (message.type === "assistant") {
    for (const block of message.message.content) if (block.type === "text") console.log(block.text);
  }
  if (message.type === "result") {
    console.log(JSON.stringify({ result: message.subtype, turns: message.num_turns }));
    process.exitCode = message.subtype === "success" ? 0 : 1;
  }
}
