import { RE2JS } from "re2js";

/**
 * Regexes from hook files run on the host against agent-controlled text, so a hostile pattern
 * must not be able to hang the daemon: they compile to RE2 (linear time, no backtracking).
 * RE2 has no lookaround or backreferences; such patterns are refused at load with a clear error.
 */
export interface SafeRegex {
  readonly source: string;
  test(text: string): boolean;
}

/** Text longer than this is matched on its first part only (matching stays bounded in time too). */
const MAX_SUBJECT = 1024 * 1024;

export type RegexCheck = { readonly ok: true; readonly regex: SafeRegex } | { readonly ok: false; readonly message: string };

export function compileRegex(source: string): RegexCheck {
  try {
    const compiled = RE2JS.compile(source);
    return { ok: true, regex: { source, test: (text) => compiled.matcher(text.length > MAX_SUBJECT ? text.slice(0, MAX_SUBJECT) : text).find() } };
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, "");
    return { ok: false, message: `invalid regular expression /${source}/: ${reason} (Hookbox uses RE2 syntax: no lookaround or backreferences)` };
  }
}
