/** One subagent of the session as the user sees it: a row under the status line while it runs. */
export interface SubagentActivity {
  readonly id: number;
  /** Its agent type's name (`explorer`). */
  readonly name: string;
  /** The task's short description, as the model wrote it (unsanitized). */
  readonly description: string;
  /** `waiting` for a slot (MAX_PARALLEL_SUBAGENTS), or `running`. */
  readonly state: "waiting" | "running";
  /** Claude Code's name of the tool it runs now (`Grep`); undefined while its model thinks. */
  readonly tool: string | undefined;
  /** Tool calls it started so far. */
  readonly toolUses: number;
}

/** Why a subagent's own signal was aborted: the user cancelled the subagents (Esc), not the turn. */
export const CANCELLED_BY_USER = "subagents cancelled by the user";

/** Whether a subagent's signal was aborted by `cancelAll` (Esc), rather than with the whole turn. */
export function cancelledAlone(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason === CANCELLED_BY_USER;
}

interface Entry {
  activity: SubagentActivity;
  abort: AbortController;
}

/**
 * The subagents that run now (or wait for a slot), each with its own AbortController: the REPL
 * draws one row per entry and cancels them all with Esc while the parent's turn goes on.
 * Listeners hear every change (a start, a tool, an end).
 */
export class RunningSubagents {
  private nextId = 1;
  private readonly entries = new Map<number, Entry>();
  private readonly listeners = new Set<() => void>();

  /** The subagents in the order they were started. */
  list(): SubagentActivity[] {
    return [...this.entries.values()].map((entry) => entry.activity);
  }

  /** A new subagent, waiting for its slot; its signal aborts when the parent's does or on `cancelAll`. */
  add(name: string, description: string, parent: AbortSignal | undefined): { id: number; signal: AbortSignal } {
    const id = this.nextId++;
    const abort = new AbortController();
    this.entries.set(id, { abort, activity: { id, name, description, state: "waiting", tool: undefined, toolUses: 0 } });
    this.changed();
    return { id, signal: parent ? AbortSignal.any([parent, abort.signal]) : abort.signal };
  }

  update(id: number, change: Partial<Pick<SubagentActivity, "state" | "tool" | "toolUses">>): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.activity = { ...entry.activity, ...change };
    this.changed();
  }

  remove(id: number): void {
    if (this.entries.delete(id)) this.changed();
  }

  /** Cancels every subagent that runs or waits; returns how many there were. */
  cancelAll(): number {
    const entries = [...this.entries.values()];
    for (const entry of entries) entry.abort.abort(CANCELLED_BY_USER);
    return entries.length;
  }

  /** Hears every change; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
