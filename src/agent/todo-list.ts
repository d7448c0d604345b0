import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import * as v from "valibot";

/** A model that writes more than this is not keeping a plan, it is flooding the screen. */
export const MAX_TODOS = 100;
const MAX_TEXT_CHARS = 500;

const Text = v.pipe(v.string(), v.trim(), v.minLength(1, "must not be empty"), v.maxLength(MAX_TEXT_CHARS, `at most ${MAX_TEXT_CHARS} characters`));

/** One item, in Claude Code's TodoWrite shape; other keys older versions sent (id, priority) are ignored. */
export const TodoItem = v.object({
  content: Text,
  status: v.picklist(["pending", "in_progress", "completed"], "must be pending, in_progress or completed"),
  activeForm: Text,
});
export type TodoItem = v.InferOutput<typeof TodoItem>;

export const TodoWriteInput = v.object({
  todos: v.pipe(v.array(TodoItem), v.maxLength(MAX_TODOS, `at most ${MAX_TODOS} items`)),
});
export type TodoWriteInput = v.InferOutput<typeof TodoWriteInput>;

/** The tool's name here, and Claude Code's (permission rules and hooks speak that one). */
export const TODO_WRITE = "todo_write";

/**
 * The model's todo list for the session: the last list todo_write was given, whole (each call
 * replaces it). Listeners hear every change: the REPL draws it under the status line. It lives in
 * the conversation itself (the todo_write calls), so a resumed session gets it back by `restore`.
 */
export class TodoList {
  private current: readonly TodoItem[] = [];
  private readonly listeners = new Set<(todos: readonly TodoItem[]) => void>();

  get items(): readonly TodoItem[] {
    return this.current;
  }

  set(todos: readonly TodoItem[]): void {
    this.current = todos.map((todo) => ({ ...todo }));
    for (const listener of this.listeners) listener(this.current);
  }

  clear(): void {
    if (this.current.length > 0) this.set([]);
  }

  /** Hears each new list; returns the function that stops it. */
  onChange(listener: (todos: readonly TodoItem[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The list as the conversation left it: the input of its last todo_write call that succeeded. */
  restore(messages: readonly MessageParam[]): void {
    const failed = new Set<string>();
    for (const message of messages) {
      if (typeof message.content === "string") continue;
      for (const block of message.content) if (block.type === "tool_result" && block.is_error) failed.add(block.tool_use_id);
    }
    for (const message of [...messages].reverse()) {
      if (message.role !== "assistant" || typeof message.content === "string") continue;
      for (const block of [...message.content].reverse()) {
        if (block.type !== "tool_use" || block.name !== TODO_WRITE || failed.has(block.id)) continue;
        const parsed = v.safeParse(TodoWriteInput, block.input);
        if (!parsed.success) continue;
        this.set(parsed.output.todos);
        return;
      }
    }
    this.clear();
  }
}

/** How many are done, of how many: `2/5`. */
export function todoProgress(todos: readonly TodoItem[]): string {
  return `${todos.filter((todo) => todo.status === "completed").length}/${todos.length}`;
}
