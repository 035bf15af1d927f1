// The least any emit can do: read stdin, one request to the daemon over its socket, print.
const input = await Bun.stdin.text();
const response = await fetch("http://localhost/v1/events/PreToolUse", { method: "POST", body: input, headers: { "content-type": "application/json" }, unix: Bun.argv[2] } as RequestInit);
await Bun.write(Bun.stdout, await response.text());
export {};
