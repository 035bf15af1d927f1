import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import type { DesktopHost } from "./types.ts";

/**
 * The desktop through the platform's own commands. A notification's text comes from hooks
 * (untrusted): it travels as an argument, never through a shell or a script's source, and the
 * markup notify-send would read in it is escaped.
 */
export function createDesktopHost(env: Readonly<Record<string, string | undefined>>, platform: string): DesktopHost {
  const found = new Map<string, string | undefined>();
  const command = (name: string): string | undefined => {
    if (!found.has(name)) found.set(name, onPath(name, env.PATH ?? "/usr/bin:/bin"));
    return found.get(name);
  };
  const graphical = platform === "darwin" || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
  return {
    notify: (title, body) => {
      if (platform === "darwin") {
        const osascript = command("osascript");
        // The texts are the script's argv, not part of its source.
        return osascript
          ? start(osascript, [
              "-e",
              "on run argv",
              "-e",
              "display notification (item 2 of argv) with title (item 1 of argv)",
              "-e",
              "end run",
              safeArgument(title),
              safeArgument(body),
            ])
          : false;
      }
      const notifySend = graphical || env.DBUS_SESSION_BUS_ADDRESS ? command("notify-send") : undefined;
      return notifySend ? start(notifySend, ["--app-name=Hookbox", "--", escapeMarkup(title), escapeMarkup(body)]) : false;
    },
    open: (target) => {
      if (!graphical) return false;
      const opener = command(platform === "darwin" ? "open" : "xdg-open");
      return opener ? start(opener, [target]) : false;
    },
  };
}

function onPath(name: string, path: string): string | undefined {
  for (const dir of path.split(":")) {
    if (!dir.startsWith("/")) continue;
    try {
      accessSync(`${dir}/${name}`, constants.X_OK);
      return `${dir}/${name}`;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Started and forgotten: its failure (no notification daemon running, say) is not ours to report. */
function start(file: string, args: readonly string[]): boolean {
  try {
    const child = spawn(file, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** notify-send bodies may hold a subset of HTML that some notification servers render. */
function escapeMarkup(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** osascript reads a leading "-" after the script as an option. */
function safeArgument(text: string): string {
  return text.startsWith("-") ? ` ${text}` : text;
}
