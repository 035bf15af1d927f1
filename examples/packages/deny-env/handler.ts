// A community hook as a package (docs/packages.md): it reads the project's list of .env files
// writes may touch anyway, so its one grant is reading the workspace.
export default async function (event: HookEvent, hook: Hook): Promise<HookResult | undefined> {
  const path = String((event.tool_input as { file_path?: unknown } | undefined)?.file_path ?? "");
  if (!/(^|\/)\.env(\.|$)/.test(path)) return undefined;
  const allowed = await hook.readFile(".hookbox-allow").then(
    (text) => text.split("\n").map((line) => line.trim()),
    () => [],
  );
  if (allowed.includes(path) || allowed.some((name) => name !== "" && path.endsWith(`/${name}`))) return undefined;
  return { action: "deny", reason: `${path} holds secrets (deny-env; list it in .hookbox-allow to allow it)` };
}
