/** Versions compared as dotted numbers, a pre-release (`-rc.1`) before its release: enough for `update` to pick the newest. */
export function compareVersions(a: string, b: string): number {
  const split = (v: string): { main: string[]; pre: string | undefined } => {
    const [main = "", pre] = v.replace(/\+.*$/, "").split(/-(.*)/s);
    return { main: main.split("."), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.max(x.main.length, y.main.length); i++) {
    const p = x.main[i] ?? "0";
    const q = y.main[i] ?? "0";
    const diff = /^\d+$/.test(p) && /^\d+$/.test(q) ? Number(p) - Number(q) : p.localeCompare(q);
    if (diff !== 0) return Math.sign(diff);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return Math.sign(x.pre.localeCompare(y.pre, undefined, { numeric: true }));
}
