// Closed-loop load generator: N requests always in flight to a unix-socket server for a fixed
// window, counting completions. Usage: load-client SOCKET PATH IN_FLIGHT WINDOW_MS WARMUP_MS,
// the request body on stdin. Prints one JSON line: completed, errors, window, latencies (µs).
const [socket, path, inFlightArg, windowArg, warmupArg] = Bun.argv.slice(2) as [string, string, string, string, string];
const inFlight = Number(inFlightArg);
const windowMs = Number(windowArg);
const warmupMs = Number(warmupArg);
const body = await Bun.stdin.text();
const url = `http://localhost${path}`;
const init = { method: "POST", body, headers: { "content-type": "application/json" }, unix: socket } as RequestInit;

const latenciesUs: number[] = [];
const errorSamples: string[] = [];
let completed = 0;
let errors = 0;
const started = performance.now();
const windowStart = started + warmupMs;
const windowEnd = windowStart + windowMs;

async function loop(): Promise<void> {
  for (;;) {
    const sent = performance.now();
    if (sent >= windowEnd) return;
    let ok = false;
    try {
      const response = await fetch(url, init);
      await response.arrayBuffer();
      ok = response.status === 200;
      if (!ok && errorSamples.length < 5) errorSamples.push(`HTTP ${response.status}`);
    } catch (error) {
      if (errorSamples.length < 5) errorSamples.push(String(error));
    }
    const done = performance.now();
    // Throughput = answers that arrive inside the window (the loop keeps IN_FLIGHT busy throughout).
    if (done >= windowStart && done <= windowEnd) {
      if (ok) {
        completed++;
        latenciesUs.push(Math.round((done - sent) * 1000));
      } else errors++;
    }
  }
}

await Promise.all(Array.from({ length: inFlight }, loop));
console.log(JSON.stringify({ completed, errors, errorSamples, windowMs, latenciesUs }));
export {};
