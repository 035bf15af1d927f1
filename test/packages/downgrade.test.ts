import { describe, expect, it } from "vitest";
import { bundleNameMismatch } from "../../src/hooks/packages/bundle.ts";
import { checkVersion } from "../../src/hooks/packages/downgrade.ts";

describe("a bundle holds what its name says, and add/update never downgrade unasked", () => {
  it.each([
    ["guard-1.2.0.tar.gz", "guard", "1.2.0", undefined],
    ["guard-1.2.0.tar.gz", "guard", "1.0.0", "it holds guard 1.0.0, not what its name says (guard 1.2.0)"],
    ["guard-1.2.0.tar.gz", "other", "1.2.0", "it holds other 1.2.0, not what its name says (guard 1.2.0)"],
    ["guard-1.2.0.tar.gz", "guard", null, "it holds guard (no version), not what its name says (guard 1.2.0)"],
    ["guard-1.2.0-rc.1.tar.gz", "guard", "1.2.0", "it holds guard 1.2.0, not what its name says (guard 1.2.0-rc.1)"],
    ["guard.tar.gz", "guard", "1.0.0", undefined],
    ["my-build.tgz", "guard", "1.0.0", undefined],
  ])("%s holding %s %s", (name, id, version, expected) => {
    expect(bundleNameMismatch(name, id, version)).toBe(expected);
  });

  it.each([
    ["a newer version", "/m/guard-1.1.0.tar.gz", "1.1.0", "1.0.0", false, undefined],
    ["the same version", "/m/guard-1.1.0.tar.gz", "1.1.0", "1.1.0", false, undefined],
    [
      "an older one",
      "/m/guard-1.0.0.tar.gz",
      "1.0.0",
      "1.1.0",
      false,
      /guard 1\.0\.0 \(\/m\/guard-1\.0\.0\.tar\.gz\) is older than the installed 1\.1\.0: refusing to downgrade.*--allow-downgrade/,
    ],
    ["an older one, asked for", "/m/guard-1.0.0.tar.gz", "1.0.0", "1.1.0", true, undefined],
    ["10.0.0 over 9.0.0 (numbers, not text)", "/m/guard-10.0.0.tar.gz", "10.0.0", "9.0.0", false, undefined],
    ["a release over its candidate", "/m/guard-1.0.0.tar.gz", "1.0.0", "1.0.0-rc.2", false, undefined],
    ["a candidate over its release", "/m/guard-1.0.0-rc.2.tar.gz", "1.0.0-rc.2", "1.0.0", false, /older than the installed 1\.0\.0/],
    ["a folder (no name to check) that is older", undefined, "1.0.0", "1.1.0", false, /guard 1\.0\.0 is older than the installed 1\.1\.0/],
    ["a first install", "/m/guard-1.0.0.tar.gz", "1.0.0", undefined, false, undefined],
    [
      "a renamed older bundle, even asked to downgrade",
      "/m/guard-2.0.0.tar.gz",
      "1.0.0",
      "1.1.0",
      true,
      /is refused: it holds guard 1\.0\.0, not what its name says \(guard 2\.0\.0\)/,
    ],
    ["a URL's name", "https://h/x/guard-2.0.0.tar.gz", "1.0.0", undefined, false, /not what its name says/],
  ] as const)("%s", (_name, bundle, version, installed, allowDowngrade, refused) => {
    const run = () => checkVersion({ bundle, id: "guard", version, installed, allowDowngrade });
    if (refused) expect(run).toThrow(refused);
    else expect(run).not.toThrow();
  });
});
