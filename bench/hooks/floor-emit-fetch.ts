// A floor for emit through a daemon with Bun's usual APIs: Bun.stdin, one `fetch` over the unix
// socket, print. Kept beside floor-emit.ts (the cheapest floor) to show what fetch costs.
const input = await Bun.stdin.text();
const response = await fetch("http://localhost/v1/events/PreToolUse", {
  method: "POST",
  body: input,
  headers: { "content-type": "application/json" },
  unix: Bun.argv[2],
} as RequestInit);
await Bun.write(Bun.stdout, await response.text());
export {};
