import packageJson from "../package.json" with { type: "json" };

/** Stamped by build.ts (`define`): the version plus a hash of the sources the binary was built from. */
declare const HOOKBOX_BUILD_ID: string | undefined;

/**
 * What identifies this build of Hookbox: two binaries with the same id embed the same code and
 * standard hooks. Running from sources (tests under Node or Deno), it is the version alone.
 */
export const BUILD_ID: string = typeof HOOKBOX_BUILD_ID === "string" ? HOOKBOX_BUILD_ID : `${packageJson.version}+sources`;
