import { isWithin } from "./posix.ts";

/**
 * Kernel file systems no hook may read, whatever it was granted: /proc holds every process's
 * environment and open descriptors (/proc/self/environ, /proc/<pid>/fd/N), /dev holds devices
 * (/dev/zero never ends), /sys the kernel's knobs. Checked on real paths, so a symlink into
 * them is caught too.
 */
const SPECIAL_ROOTS = ["/proc", "/dev", "/sys"] as const;

export function specialFileSystem(realPath: string): string | undefined {
  return SPECIAL_ROOTS.find((root) => isWithin(root, realPath));
}
