/** True inside a `bun build --compile` binary, whose modules live under /$bunfs. */
export function isCompiledBinary(): boolean {
  return import.meta.url.includes("$bunfs") || (process.argv[1] ?? "").startsWith("/$bunfs");
}
