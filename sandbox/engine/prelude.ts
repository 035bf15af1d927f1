/**
 * Trusted guest-side code, evaluated in every context before the handler. It receives the two
 * native bridge functions as arguments (they never appear on globalThis), captures JSON before
 * handler code can replace it, and builds the `hook` object and `console`.
 *
 * Every `hook.*` capability call crosses the bridge as (name, JSON args) and resolves to JSON:
 * one marshalling path, so no host object or getter ever reaches the guest.
 */
export const PRELUDE_FILENAME = "hookbox:prelude";

export const PRELUDE_SOURCE = String.raw`(function (hostCall, emitLog) {
  "use strict";
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const freeze = Object.freeze;
  const defineProperty = Object.defineProperty;
  const MAX_LINE = 8192;

  class HookboxError extends Error {
    constructor(message, code) {
      super(message);
      defineProperty(this, "name", { value: "HookboxError", enumerable: false, writable: true, configurable: true });
      if (code !== undefined) this.code = code;
    }
  }
  class PermissionDenied extends HookboxError {
    constructor(message, code) {
      super(message, code);
      defineProperty(this, "name", { value: "PermissionDenied", enumerable: false, writable: true, configurable: true });
    }
  }
  const errorClasses = { PermissionDenied: PermissionDenied };

  function toGuestError(e) {
    if (e === null || typeof e !== "object") return new HookboxError(String(e));
    const Ctor = errorClasses[e.name] || HookboxError;
    const err = new Ctor(String(e.message), e.code);
    if (Ctor === HookboxError && typeof e.name === "string") {
      defineProperty(err, "name", { value: e.name, enumerable: false, writable: true, configurable: true });
    }
    return err;
  }

  function call(name, args) {
    return hostCall(name, stringify(args)).then(
      function (json) { return json === undefined ? undefined : parse(json); },
      function (e) { throw toGuestError(e); }
    );
  }

  function show(value) {
    if (typeof value === "string") return value;
    if (value instanceof Error) return value.name + ": " + value.message;
    try {
      const text = stringify(value);
      return text === undefined ? String(value) : text;
    } catch (e) {
      return String(value);
    }
  }
  function line(args) {
    let text = "";
    for (let i = 0; i < args.length; i++) text += (i ? " " : "") + show(args[i]);
    return text.length > MAX_LINE ? text.slice(0, MAX_LINE) + "…" : text;
  }
  const LEVELS = { debug: 1, info: 1, warn: 1, error: 1 };
  function log(level, args) { emitLog(level, line(args)); }

  const guestConsole = freeze({
    log: function () { log("info", arguments); },
    info: function () { log("info", arguments); },
    debug: function () { log("debug", arguments); },
    warn: function () { log("warn", arguments); },
    error: function () { log("error", arguments); }
  });
  defineProperty(globalThis, "console", { value: guestConsole, writable: false, configurable: false, enumerable: false });
  defineProperty(globalThis, "PermissionDenied", { value: PermissionDenied, writable: false, configurable: false, enumerable: false });
  defineProperty(globalThis, "HookboxError", { value: HookboxError, writable: false, configurable: false, enumerable: false });

  function deepFreeze(value) {
    if (value && typeof value === "object" && !Object.isFrozen(value)) {
      freeze(value);
      for (const key of Object.keys(value)) deepFreeze(value[key]);
    }
    return value;
  }

  function makeHook(namesJson, dataJson) {
    const hook = {};
    const data = parse(dataJson);
    for (const key of Object.keys(data)) hook[key] = deepFreeze(data[key]);
    for (const name of parse(namesJson)) {
      const path = name.split(".");
      let target = hook;
      for (let i = 0; i < path.length - 1; i++) {
        if (!Object.prototype.hasOwnProperty.call(target, path[i])) target[path[i]] = {};
        target = target[path[i]];
      }
      target[path[path.length - 1]] = function () { return call(name, Array.prototype.slice.call(arguments)); };
    }
    hook.log = function (level, message) {
      const lvl = LEVELS[level] === 1 ? level : "info";
      log(lvl, LEVELS[level] === 1 ? [message] : arguments);
    };
    return deepFreeze(hook);
  }

  // Puts a string the host sent on its own (a large one) back at its place in the parsed event;
  // pathJson is a JSON array of keys from the event's root ([] is the root itself).
  function place(root, pathJson, value) {
    const path = parse(pathJson);
    if (path.length === 0) return value;
    let target = root;
    for (let i = 0; i < path.length - 1; i++) target = target[path[i]];
    defineProperty(target, path[path.length - 1], { value: value, writable: true, enumerable: true, configurable: true });
    return root;
  }

  return { parse: parse, stringify: stringify, makeHook: makeHook, place: place };
})`;
