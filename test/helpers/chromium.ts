import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { ROOT } from "./daemon.ts";
import { onPath } from "./tools.ts";

/** Debian's chromium (installed by .ci/install-tools), found on PATH. */
const CHROMIUM = onPath("chromium");

/** Where browser tests put their screenshots (gitignored); the tests print each path. */
export function screenshotDir(suite: string): string {
  const dir = join(ROOT, "test-output", suite);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Headless Chromium driven by playwright-core, or why it cannot run here. No network beyond what
 * the test serves: background services, component updates and QUIC are off.
 */
export async function launchChromium(): Promise<{ browser: Browser } | { skip: string }> {
  if (CHROMIUM === undefined) return { skip: "chromium is not on PATH (.ci/install-tools installs Debian's chromium package)" };
  const { chromium } = await import("playwright-core");
  try {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    return { browser };
  } catch (error) {
    return { skip: `${CHROMIUM} did not start: ${(error as Error).message.split("\n")[0]}` };
  }
}
