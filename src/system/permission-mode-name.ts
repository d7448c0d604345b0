/**
 * The permission modes by Claude Code's names, as `--permission-mode` and settings.json's
 * `permissions.defaultMode` write them (the session's mode itself: src/agent/permission-mode.ts).
 */
export const PERMISSION_MODES = ["default", "acceptEdits", "plan"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/**
 * A mode's name, or why not. bypassPermissions is refused by name: `--allow-all` is cat-code's way
 * to run everything unasked, and says so.
 */
export function parsePermissionMode(text: string): { ok: true; mode: PermissionMode } | { ok: false; error: string } {
  if ((PERMISSION_MODES as readonly string[]).includes(text)) return { ok: true, mode: text as PermissionMode };
  if (text === "bypassPermissions") return { ok: false, error: "bypassPermissions is not a mode in cat-code: use --allow-all to run every tool unasked (deny rules still hold)" };
  return { ok: false, error: `'${text}' is not a permission mode; use ${PERMISSION_MODES.join(", ")}` };
}
