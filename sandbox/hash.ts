/**
 * The hashes that name compiled handlers and spec keys. Its own module so that the engine (in
 * every sandbox worker) can key its slots without loading the TypeScript transpiler.
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
