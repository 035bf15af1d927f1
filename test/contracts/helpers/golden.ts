import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { expect } from "vitest";

const GOLDEN_DIR = resolve(import.meta.dirname, "../golden");

/** `UPDATE_GOLDEN=1` rewrites the golden files from the current output; review the diff before committing. */
export const UPDATING_GOLDEN = process.env.UPDATE_GOLDEN === "1";

/** Compare with test/contracts/golden/<file>; a missing file fails (CI must not create its own expectations). */
export function expectGolden(file: string, actual: unknown): void {
  const path = join(GOLDEN_DIR, file);
  if (UPDATING_GOLDEN) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
    return;
  }
  if (!existsSync(path))
    throw new Error(
      `missing golden file test/contracts/golden/${file}: run UPDATE_GOLDEN=1 HOOKBOX_SKIP_BUILD=1 npx vitest run test/contracts, review it, commit it`,
    );
  expect(actual).toEqual(JSON.parse(readFileSync(path, "utf8")));
}

/** In decode goldens, a field copied unchanged from the payload shows as this, so what the adapter derived stands out. */
export const SAME_AS_PAYLOAD = "<same as the payload>";

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function againstPayload(event: Readonly<Record<string, unknown>>, payload: unknown): Record<string, unknown> {
  const source = (payload ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(event).map(([key, value]) => [key, Object.hasOwn(source, key) && sameJson(source[key], value) ? SAME_AS_PAYLOAD : value]),
  );
}
