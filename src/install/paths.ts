/** A path under a directory, in that directory's own separator style (a Windows home stays backslashed). */
export function joinPath(base: string, ...parts: readonly string[]): string {
  const separator = base.includes("\\") && !base.includes("/") ? "\\" : "/";
  const trimmed = base.replace(/[\\/]+$/, "");
  return [trimmed === "" && base !== "" ? "" : trimmed, ...parts].join(separator);
}
