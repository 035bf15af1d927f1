import type { FileInfo, OpenedFile } from "../../platform/capability-io.ts";
import { refused } from "../denied.ts";
import type { InvocationScope } from "../capability.ts";

const KIND_TEXT: Readonly<Record<string, string>> = {
  directory: "a directory",
  symlink: "a symbolic link",
  fifo: "a FIFO (named pipe)",
  socket: "a socket",
  "char-device": "a character device",
  "block-device": "a block device",
  unknown: "not a regular file",
};

export function notRegular(scope: InvocationScope, call: string, info: FileInfo): Error {
  return refused(scope.hookId, call, `it is ${KIND_TEXT[info.kind] ?? "not a regular file"}; hooks read regular files only`);
}

/**
 * Open a checked real path and prove the descriptor is that file: opened without following a
 * final symlink (a swap to a symlink fails with ELOOP) and without blocking (a FIFO cannot hang
 * the call), then compared with the checked path — through /proc/self/fd on Linux, by dev:ino
 * elsewhere. A directory in the path swapped for a symlink between check and open is caught
 * here, because the descriptor then points somewhere else.
 */
export async function openChecked(scope: InvocationScope, call: string, real: string): Promise<OpenedFile> {
  const before = await scope.deps.io.lstat(real);
  if (before.kind !== "file") throw notRegular(scope, call, before);
  const file = await scope.deps.io.openFile(real).catch((error: unknown) => {
    if ((error as { code?: unknown } | null)?.code === "ELOOP")
      throw refused(scope.hookId, call, `${real} was swapped for a symbolic link while it was being opened`);
    throw error;
  });
  try {
    const moved = file.realPath !== undefined ? file.realPath !== real : file.info.id !== before.id;
    if (moved) throw refused(scope.hookId, call, `${real} changed while it was being opened (a file or directory was swapped for a symbolic link)`);
    if (file.info.kind !== "file") throw notRegular(scope, call, file.info);
    return file;
  } catch (error) {
    await file.close();
    throw error;
  }
}
