import type { Command } from "commander";
import type { CliContext } from "./context.ts";
import { daemonRequest } from "./daemon-client.ts";
import { EXIT } from "./exit-codes.ts";
import { locationsFrom } from "./setup.ts";

/** `hookbox console`: a fresh sign-in link to the running daemon's web console, opened in a browser where there is one. */
export function registerConsole(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("console")
    .description("Print a one-time sign-in link to the daemon's web console (hookbox serve --console) and open it in a browser")
    .option("--socket <path>", "the daemon's socket")
    .option("--no-open", "only print the link")
    .option("--json", "print { url, opened } as JSON")
    .addHelpText(
      "after",
      `
The link works once, within 10 minutes; the browser then holds a session cookie for as long as
the daemon runs. The browser is given a private file that leads to the link (never the link on
a command line, where other local users could read it with ps).`,
    )
    .action(async (options: { socket?: string; open: boolean; json?: boolean }) => {
      const locations = locationsFrom(ctx, options);
      const { url } = await daemonRequest<{ url: string }>(ctx.host, locations, "POST", "/v1/console/url", {});
      const opened = options.open
        ? await openInBrowser(ctx, `${locations.socketPath.slice(0, locations.socketPath.lastIndexOf("/"))}/console-open.html`, url)
        : false;
      if (options.json) await ctx.out(`${JSON.stringify({ url, opened })}\n`);
      else {
        await ctx.out(`${url}\n`);
        if (options.open && !opened) ctx.err("no browser to open here: open the link above (it works once, within 10 minutes)\n");
      }
      setExit(EXIT.ok);
    });
}

/** A page beside the daemon's socket (a private directory) that moves on to the link. */
async function openInBrowser(ctx: CliContext, file: string, url: string): Promise<boolean> {
  const href = url.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  await ctx.host.fs.writeTextAtomic(
    file,
    `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Hookbox console</title><a href="${href}">Open the Hookbox console</a>\n`,
    0o600,
  );
  return ctx.host.desktop.open(file);
}
