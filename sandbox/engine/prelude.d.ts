/**
 * Trusted guest-side code, evaluated in every context before the handler. It receives the two
 * native bridge functions as arguments (they never appear on globalThis), captures JSON before
 * handler code can replace it, and builds the `hook` object and `console`.
 *
 * Every `hook.*` capability call crosses the bridge as (name, JSON args) and resolves to JSON:
 * one marshalling path, so no host object or getter ever reaches the guest.
 */
export declare const PRELUDE_FILENAME = "hookbox:prelude";
export declare const PRELUDE_SOURCE: string;
