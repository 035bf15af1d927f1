import type { OperatorLayers } from "../decide/system-layer.ts";

/**
 * How a system policy and the user's operator file made the operator in force, one line each:
 * what `validate` prints (and `doctor` in short). Every setting written in either file, with the
 * file it comes from; then what the user's file says that does not apply, and why.
 */
export function describeLayers(layers: OperatorLayers): string[] {
  const lines = [
    `operator settings in force: the system policy ${layers.system}${layers.user ? ` and ${layers.user}` : " (no operator file of yours)"}; yours may add to the system's, never weaken them`,
  ];
  const width = Math.max(0, ...layers.origins.map((origin) => origin.setting.length));
  for (const origin of layers.origins) {
    const from = origin.from === "system" ? "system" : origin.from === "user" ? "yours" : "both";
    const value = origin.setting.includes(": ") ? "" : ` = ${origin.value}`;
    lines.push(`  ${`${origin.setting}${value}`.padEnd(width)}   (${from})`);
  }
  for (const ignored of layers.ignored) lines.push(`  ignored: ${ignored.setting}: ${ignored.value} — ${ignored.why}`);
  return lines;
}

/** The same as JSON (snake_case). */
export function layersJson(layers: OperatorLayers): object {
  return {
    system: layers.system,
    user: layers.user ?? null,
    system_hooks_dirs: layers.systemHooksDirs,
    origins: layers.origins,
    ignored: layers.ignored,
  };
}
