#!/usr/bin/env node
// A plain hook for the agent e2e harness: `node record-and-answer.mjs <dir> [event]`.
// Appends the stdin payload (and the names, not values, of its env vars) to <dir>/log.jsonl, then answers from <dir>/answers/<event>.json
// if that file exists: { "stdout"?: object | string, "stderr"?: string, "exit"?: number }.
// No answer file: prints nothing, exit 0 (allow). The event is argv[3], else hook_event_name.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const raw = Buffer.concat(chunks).toString("utf8");
let payload;
try {
  payload = JSON.parse(raw);
} catch {
  payload = { unparsed: raw };
}
const event = process.argv[3] ?? payload.hook_event_name ?? "unknown";
appendFileSync(
  join(dir, "log.jsonl"),
  JSON.stringify({
    event,
    payload,
    env: { CLAUDE_PROJECT_DIR: process.env.CLAUDE_PROJECT_DIR ?? null, GEMINI_PROJECT_DIR: process.env.GEMINI_PROJECT_DIR ?? null },
    envNames: Object.keys(process.env).sort(),
  }) + "\n",
);
const answerFile = join(dir, "answers", `${event}.json`);
if (existsSync(answerFile)) {
  const answer = JSON.parse(readFileSync(answerFile, "utf8"));
  if (answer.stdout !== undefined) process.stdout.write(typeof answer.stdout === "string" ? answer.stdout : JSON.stringify(answer.stdout));
  if (answer.stderr !== undefined) process.stderr.write(answer.stderr);
  process.exitCode = answer.exit ?? 0;
}
