import { TODO_WRITE, TodoList, TodoWriteInput } from "../todo-list.ts";
import type { Tool, ToolResult } from "../tool.ts";
import { okResult, parseToolInput } from "./tool-input.ts";

const DESCRIPTION = `Creates and updates your todo list for this session: the plan of a multi-step task, which the user sees live.
- Use it for work of 3 or more distinct steps, or when the user gives several tasks; not for a single trivial step.
- Send the whole list every time (it replaces the previous one). Each item: content (imperative, "Run the tests"), activeForm (present continuous, "Running the tests"), status pending, in_progress or completed.
- Keep exactly one item in_progress while working; mark it completed as soon as it is done (not in batches), then start the next. Only mark completed what is fully done: tests passing, nothing left unresolved.`;

/** Claude Code's answer, word for word: models trained on it expect it. */
const DONE = "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable";

/** Claude Code's TodoWrite: changes nothing outside the session, so it never asks. */
export class TodoWriteTool implements Tool {
  readonly name = TODO_WRITE;
  readonly description = DESCRIPTION;
  // Not read-only: two lists written by one answer must apply in the model's order.
  readonly isReadOnly = false;
  readonly inputSchema = {
    type: "object",
    properties: {
      todos: {
        type: "array",
        description: "The updated todo list",
        items: {
          type: "object",
          properties: {
            content: { type: "string", minLength: 1 },
            status: { type: "string", enum: ["pending", "in_progress", "completed"] },
            activeForm: { type: "string", minLength: 1 },
          },
          required: ["content", "status", "activeForm"],
        },
      },
    },
    required: ["todos"],
  };

  constructor(readonly todos: TodoList = new TodoList()) {}

  async needsPermission(): Promise<boolean> {
    return false;
  }

  async execute(input: Record<string, unknown>): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, TodoWriteInput, input);
    if (!parsed.ok) return parsed.result;
    this.todos.set(parsed.value.todos);
    return okResult(DONE);
  }
}
