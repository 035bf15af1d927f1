import type { Command } from "commander";
import { openApiDocument } from "../serve/api/openapi.ts";
import { VERSION } from "../core/version/index.ts";
import type { CliContext } from "./context.ts";

/** `hookbox openapi`: the daemon's API as an OpenAPI 3.1 document, the same one GET /v1/openapi.json serves. */
export function registerOpenApi(program: Command, ctx: CliContext): void {
  program
    .command("openapi")
    .description("Print the OpenAPI 3.1 document of the daemon's HTTP API (what GET /v1/openapi.json serves)")
    .addHelpText(
      "after",
      "\nFor generating a client in another language; the contract for orchestrators is docs/orchestrators.md.\n  hookbox openapi > hookbox-openapi.json",
    )
    .action(async () => {
      await ctx.out(`${JSON.stringify(openApiDocument(VERSION), null, 2)}\n`);
    });
}
