import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * An external program's path, found on PATH the way a shell finds it; undefined when it is not
 * there. Tests look tools up on PATH only (never at a fixed path), so a PATH without them is a
 * machine without them: how the suite is checked on a "fresh machine" without uninstalling.
 */
export function onPath(name: string, path = process.env.PATH ?? ""): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
