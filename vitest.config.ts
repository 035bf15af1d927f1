import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/hookbox once per run: the e2e suites drive the real binary.
    globalSetup: ["test/helpers/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // The default reporter counts skips; skip-reporter.ts prints why each one skipped.
    reporters: ["default", "./test/helpers/skip-reporter.ts"],
  },
});
