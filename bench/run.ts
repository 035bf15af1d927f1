// npm run bench [-- suite…]: runs the side-by-side suites and rewrites their BENCHMARKS.md sections.
import { writeSection } from "./lib.ts";

const SUITES: Record<string, () => Promise<{ run: () => Promise<string> }>> = {
  sandbox: () => import("./suites/sandbox.ts"),
  dispatch: () => import("./suites/dispatch.ts"),
  latency: () => import("./suites/latency.ts"),
  throughput: () => import("./suites/throughput.ts"),
  emit: () => import("./suites/emit.ts"),
  memory: () => import("./suites/memory.ts"),
  audit: () => import("./suites/audit.ts"),
  daemon: () => import("./suites/daemon.ts"),
  "first-call": () => import("./suites/first-call.ts"),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
for (const name of wanted.length ? wanted : Object.keys(SUITES)) {
  const load = SUITES[name];
  if (!load) throw new Error(`unknown suite ${name}; known: ${Object.keys(SUITES).join(", ")}`);
  console.log(`running ${name} …`);
  const markdown = await (await load()).run();
  writeSection(name, markdown);
  console.log(markdown);
}
