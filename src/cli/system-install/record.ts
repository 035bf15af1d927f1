import { z } from "zod";
import { HookboxError, errorMessage } from "../../core/errors.ts";
import type { FileHost } from "../../platform/index.ts";

/**
 * What `hookbox install --system` changed, so that `uninstall --system` puts the machine back
 * byte for byte: each file's state before the first install (its mode, digest and a copy of its
 * bytes, or that it was not there), what Hookbox wrote, the directories it created. Root's only
 * (0600, under /var/lib/hookbox).
 */
const fileStateSchema = z.object({ mode: z.number().int(), sha256: z.string() }).strict();

const recordedFileSchema = z
  .object({
    path: z.string(),
    what: z.string(),
    agent: z.string().optional(),
    /** null: the file was not there. */
    before: fileStateSchema.extend({ backup: z.string() }).strict().nullable(),
    after: fileStateSchema,
    /** Settings Hookbox set besides its hooks (a managed settings file edited rather than restored takes them out too). */
    added: z.array(z.string()).default([]),
  })
  .strict();

export const systemRecordSchema = z
  .object({
    v: z.literal(1),
    installed_at: z.string(),
    build: z.string(),
    root: z.string(),
    managed_hooks_only: z.boolean(),
    /** Outermost first. */
    created_dirs: z.array(z.string()),
    files: z.array(recordedFileSchema),
  })
  .strict();

export type SystemRecord = z.output<typeof systemRecordSchema>;
export type RecordedFile = z.output<typeof recordedFileSchema>;

export async function readSystemRecord(fs: FileHost, path: string): Promise<SystemRecord | undefined> {
  if ((await fs.kind(path)) === "missing") return undefined;
  let data: unknown;
  try {
    data = JSON.parse(await fs.readText(path));
  } catch (error) {
    throw new HookboxError(
      "config_invalid",
      `${path} (what install --system changed) cannot be read: ${errorMessage(error)}. Move it away to uninstall without it (entries out, nothing restored)`,
    );
  }
  const parsed = systemRecordSchema.safeParse(data);
  if (!parsed.success)
    throw new HookboxError("config_invalid", `${path} is not an install record this Hookbox knows (${parsed.error.issues[0]?.message ?? "invalid"})`);
  return parsed.data;
}
