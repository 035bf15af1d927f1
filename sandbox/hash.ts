/**
 * SHA-256 of a text, as hex: the identity of compiled code and of warm slots. A module of its
 * own so that the engine (through spec.ts) does not load the TypeScript transpiler with it:
 * workers only run code the parent compiled.
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The identity of a handler's compiled code (CompiledHandler.codeHash): its file name and its JavaScript. */
export function codeHashOf(filename: string, code: string): Promise<string> {
  return sha256Hex(`${filename}\0${code}`);
}
