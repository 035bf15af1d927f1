// Installs the pinned agent CLIs of clients.ts into the cache (in parallel; each is skipped when
// already there). Run: npx tsx test/e2e/agents/install-clients.ts [name …]
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { CLIENTS, clientPrefix, type ClientName, type ClientPackage } from "./clients.ts";

function install(name: ClientName): Promise<string> {
  const client: ClientPackage = CLIENTS[name];
  const prefix = clientPrefix(client);
  if (existsSync(join(prefix, "node_modules", client.pkg, "package.json"))) return Promise.resolve(`${name}: already in ${prefix}`);
  mkdirSync(prefix, { recursive: true });
  const started = Date.now();
  const args = [
    "install",
    "--prefix",
    prefix,
    "--no-audit",
    "--no-fund",
    client.saved ? "--save-exact" : "--no-save",
    "--loglevel=error",
    `${client.pkg}@${client.version}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("npm", args, { stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(`${name}: ${client.pkg}@${client.version} installed in ${((Date.now() - started) / 1000).toFixed(1)} s → ${prefix}`);
      else reject(new Error(`${name}: npm ${args.join(" ")} exited ${code}`));
    });
  });
}

const wanted = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(CLIENTS)) as ClientName[];
const unknown = wanted.filter((name) => !(name in CLIENTS));
if (unknown.length > 0) throw new Error(`unknown client(s) ${unknown.join(", ")}; known: ${Object.keys(CLIENTS).join(", ")}`);
const results = await Promise.allSettled(wanted.map(install));
for (const result of results) console.log(result.status === "fulfilled" ? result.value : `FAILED ${String(result.reason)}`);
if (results.some((result) => result.status === "rejected")) process.exitCode = 1;
