/**
 * A problem in a config file, and how it is printed: apart from diagnostics.ts (the YAML reader)
 * so that a process that only shows problems (a daemon answering from cached hook sets) does not
 * load the YAML parser.
 */

/** One problem in a config file, precise enough to jump to: file:line:col, the field, and what is wrong. */
export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Dotted path of the field ("limits.cpu_ms"), or "" for the whole file. */
  readonly field: string;
  readonly message: string;
  /** Absent: an error (what it concerns did not load). "warning": it loaded, with this caveat. */
  readonly severity?: "warning";
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity === "warning" ? "warning: " : ""}${d.field ? `${d.field}: ` : ""}${d.message}`;
}
