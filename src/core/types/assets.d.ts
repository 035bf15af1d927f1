// Bun embeds files imported `with { type: "file" }` and the import yields their path.
declare module "@jitl/quickjs-wasmfile-release-sync/wasm" {
  const path: string;
  export default path;
}
