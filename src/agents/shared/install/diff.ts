import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";

/**
 * A unified diff of a config file (what --dry-run prints): `undefined` is a file that is not
 * there (/dev/null), created or removed. Empty when nothing changes.
 */
export function unifiedDiff(file: string, before: string | undefined, after: string | undefined): string {
  if (before === after) return "";
  return createTwoFilesPatch(
    before === undefined ? "/dev/null" : file,
    after === undefined ? "/dev/null" : file,
    before ?? "",
    after ?? "",
    undefined,
    undefined,
    {
      context: 3,
      headerOptions: FILE_HEADERS_ONLY,
    },
  );
}
