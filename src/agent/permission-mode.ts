import { PERMISSION_MODES, type PermissionMode } from "../system/permission-mode-name.ts";

export { PERMISSION_MODES, parsePermissionMode, type PermissionMode } from "../system/permission-mode-name.ts";

/**
 * How much the user wants to be asked, Claude Code's modes: `default` asks as the rules say;
 * `acceptEdits` also lets file edits inside the project run unasked; `plan` lets the model only read,
 * until the user accepts its plan (exit_plan_mode). Shift+Tab cycles them in PERMISSION_MODES' order.
 * What each means, in a word for the user.
 */
export const MODE_LABELS: Readonly<Record<PermissionMode, string>> = {
  default: "default mode: tools ask as the rules say",
  acceptEdits: "accept edits on: file edits in the project run without asking",
  plan: "plan mode on: the model only reads until you accept its plan",
};

/**
 * The session's mode, one per REPL or print run: the permission policy reads it at every call, the
 * prompt shows it, Shift+Tab and an accepted plan change it. Changes come out to any number of
 * listeners (each removed by what `onChange` returns).
 */
export class PermissionModeState {
  private listeners = new Set<(mode: PermissionMode) => void>();

  constructor(private current: PermissionMode = "default") {}

  get mode(): PermissionMode {
    return this.current;
  }

  set(mode: PermissionMode): void {
    if (mode === this.current) return;
    this.current = mode;
    for (const listener of [...this.listeners]) listener(mode);
  }

  /** The next mode in PERMISSION_MODES' order, wrapping round; returns it. */
  cycle(): PermissionMode {
    const next = PERMISSION_MODES[(PERMISSION_MODES.indexOf(this.current) + 1) % PERMISSION_MODES.length] as PermissionMode;
    this.set(next);
    return next;
  }

  onChange(listener: (mode: PermissionMode) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
