import type { TodoItem, TodoList } from "../agent/todo-list.ts";
import { todoProgress } from "../agent/todo-list.ts";
import type { StatusBelowLine } from "../terminal/status-line.ts";
import { oneLine } from "../terminal/terminal-text.ts";
import type { Style } from "./tool-call-line.ts";

/** Rows the list may take under the status line: a long plan must not push the answer off the screen. */
const MAX_ROWS = 10;

const MARK: Record<TodoItem["status"], string> = { completed: "☒", in_progress: "◼", pending: "☐" };

/**
 * The model's todo list as the REPL shows it, under the status line while a turn runs:
 * `Todos 1/3 · ctrl+t to hide`, then one row per item (done ones dim, the current one bold and in
 * its active form). Ctrl-T toggles it. The items come from the model: sanitized here.
 */
export class TodoPanel {
  private visible = true;

  constructor(
    private readonly todos: TodoList,
    private readonly style: Style,
  ) {}

  get isVisible(): boolean {
    return this.visible;
  }

  /** Ctrl-T; returns whether the list is shown now. */
  toggle(): boolean {
    this.visible = !this.visible;
    return this.visible;
  }

  /** The rows under the status line; none while hidden or empty. */
  lines(): StatusBelowLine[] {
    const items = this.todos.items;
    if (!this.visible || items.length === 0) return [];
    const { dim, bold } = this.style;
    const shown = window(items, MAX_ROWS - 1);
    const rows: StatusBelowLine[] = [{ text: `   Todos ${todoProgress(items)} · ctrl+t to hide`, paint: dim }];
    if (shown.start > 0) rows.push({ text: `   ⋮ ${shown.start} more above`, paint: dim });
    for (const item of shown.items) {
      const text = oneLine(item.status === "in_progress" ? item.activeForm : item.content);
      const paint = item.status === "completed" ? dim : item.status === "in_progress" ? bold : undefined;
      rows.push({ text: `   ${MARK[item.status]} ${text}`, paint });
    }
    const after = items.length - shown.start - shown.items.length;
    if (after > 0) rows.push({ text: `   ⋮ ${after} more`, paint: dim });
    return rows;
  }
}

/** At most `rows` rows of the list, `⋮` lines included, around the first item not yet done. */
function window(items: readonly TodoItem[], rows: number): { start: number; items: readonly TodoItem[] } {
  if (items.length <= rows) return { start: 0, items };
  const current = Math.max(0, items.findIndex((item) => item.status !== "completed"));
  // Two rows go to the `⋮` lines; one item done before the current one gives context.
  const room = rows - 2;
  const start = Math.min(Math.max(0, current - 1), items.length - room);
  return { start, items: items.slice(start, start + room) };
}
