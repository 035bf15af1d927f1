// Placeholder until the opencode suite lands (next commit).
export function opencodePlugin(hookbox: string): string {
  throw new Error(`opencode plugin for ${hookbox}: not written yet`);
}
