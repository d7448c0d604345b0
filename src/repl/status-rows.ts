import type { PermissionModeState } from "../agent/permission-mode.ts";
import type { StatusBelowLine } from "../terminal/status-line.ts";
import type { AgentRuntime } from "./agent-runtime.ts";
import { modeStatusLines } from "./permission-mode-view.ts";
import { subagentRows } from "./subagent-panel.ts";
import type { Style } from "./tool-call-line.ts";
import { TodoPanel } from "./todo-panel.ts";

/**
 * The rows under the status line while a turn runs, in this order: the running subagents, the todo
 * list (Ctrl-T shows or hides it), and the permission mode when it is not the default.
 */
export class StatusRows {
  private readonly todoPanel: TodoPanel;

  constructor(
    private readonly runtime: AgentRuntime,
    private readonly mode: PermissionModeState,
    private readonly style: Style,
  ) {
    this.todoPanel = new TodoPanel(runtime.todos, style);
  }

  lines(): StatusBelowLine[] {
    return [...subagentRows(this.runtime.subagents.running.list(), this.style), ...this.todoPanel.lines(), ...modeStatusLines(this.mode.mode, this.style)];
  }

  /**
   * Ctrl-T: during a turn (`running`) the list appears or goes at the status line's next tick; at
   * the prompt it is printed with `printAbove`, or a line says it is hidden.
   */
  toggleTodos(running: boolean, printAbove: (text: string) => void): void {
    const shown = this.todoPanel.toggle();
    if (running) return;
    const rows = this.todoPanel.lines();
    if (!shown) printAbove(this.style.dim("Todo list hidden (ctrl+t shows it)"));
    else if (rows.length === 0) printAbove(this.style.dim("No todo list yet (the agent writes one for multi-step work)"));
    else printAbove(rows.map((row) => (row.paint ?? ((t: string) => t))(row.text)).join("\n"));
  }
}
