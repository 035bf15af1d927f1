import type { Command } from "commander";
import { z } from "zod";
import { hookFileSchema, operatorFileSchema } from "../hooks/config/schema.ts";
import type { CliContext } from "./context.ts";

/** JSON Schema of the hook file (or the operator file), for editors: yaml-language-server reads it. */
export function jsonSchemaOf(which: "hook" | "operator"): Record<string, unknown> {
  const schema = z.toJSONSchema(which === "hook" ? hookFileSchema : operatorFileSchema, { io: "input", unrepresentable: "any" });
  return {
    ...schema,
    $id: which === "hook" ? "https://hookbox.dev/schema/hook.json" : "https://hookbox.dev/schema/hookbox.json",
    title: which === "hook" ? "Hookbox hook file" : "Hookbox operator file (hookbox.yaml)",
  };
}

export function registerSchema(program: Command, ctx: CliContext): void {
  program
    .command("schema")
    .description("Print the JSON Schema of a hook file (or, with --operator, of hookbox.yaml)")
    .option("--operator", "the operator file's schema instead of the hook file's")
    .addHelpText(
      "after",
      `
Use it in an editor with yaml-language-server:
  hookbox schema > hook.schema.json
  # then, first line of each hook file:
  # yaml-language-server: $schema=./hook.schema.json`,
    )
    .action(async (options: { operator?: boolean }) => {
      await ctx.out(`${JSON.stringify(jsonSchemaOf(options.operator ? "operator" : "hook"), null, 2)}\n`);
    });
}
