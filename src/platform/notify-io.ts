import { spawn } from "node:child_process";
import { createDesktopHost } from "./desktop.ts";
import type { NotifyIO } from "./types.ts";

/** How much of a sink command's output is read (and dropped): it must not block on a full pipe. */
const DRAIN = "ignore" as const;

/** Notifications out through node:child_process and fetch (Node, Bun and Deno alike). */
export function createNotifyIO(env: Readonly<Record<string, string | undefined>>, platform: string): NotifyIO {
  const desktop = createDesktopHost(env, platform);
  return {
    command: (argv, stdin, timeoutMs) =>
      new Promise((resolve) => {
        const [file, ...args] = argv as [string, ...string[]];
        let child: ReturnType<typeof spawn>;
        try {
          // The operator's own command: its environment is the daemon's, as a command in hookbox.yaml expects.
          child = spawn(file, args, {
            stdio: ["pipe", DRAIN, DRAIN],
            env: { ...env } as NodeJS.ProcessEnv,
            timeout: timeoutMs,
            killSignal: "SIGKILL",
          });
        } catch {
          resolve(null);
          return;
        }
        child.on("error", () => resolve(null));
        child.on("close", (code) => resolve(code));
        child.stdin?.on("error", () => undefined);
        child.stdin?.end(stdin);
      }),
    postJson: async (url, body, timeoutMs) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "hookbox" },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      return response.status;
    },
    desktop: (title, body) => desktop.notify(title, body),
  };
}
