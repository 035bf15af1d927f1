import { intOption, arity, optionsArg, pathArg } from "../args.ts";
import type { HostMethod, InvocationScope } from "../capability.ts";
import { renderCall } from "../denied.ts";
import { decodeUtf8 } from "../text.ts";
import { openChecked } from "./open.ts";

export const READ_DEFAULT_BYTES = 1024 * 1024;
export const READ_MAX_BYTES = 16 * 1024 * 1024;

/**
 * hook.readFile(path, {maxBytes}) → the file's text (UTF-8). Reads at most maxBytes (default
 * 1 MiB, at most 16 MiB): a longer file comes back cut there, on a character boundary, so a
 * 2 GB sparse file costs one capped read.
 */
export function readFileMethod(scope: InvocationScope): HostMethod {
  return async (args, call) => {
    arity("readFile", args, 2);
    const path = pathArg("readFile", args[0]);
    call.target = path;
    const options = optionsArg("readFile", args[1], ["maxBytes"]);
    const maxBytes = intOption("readFile", options, "maxBytes", { min: 0, max: READ_MAX_BYTES, fallback: READ_DEFAULT_BYTES });
    const shown = renderCall("readFile", [path]);
    const { real } = await scope.paths.confine(shown, path);
    const file = await openChecked(scope, shown, real);
    try {
      const bytes = await file.read(maxBytes);
      return decodeUtf8(bytes, { cutAtEnd: bytes.length === maxBytes });
    } finally {
      await file.close();
    }
  };
}
