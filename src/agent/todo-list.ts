import type { ContentBlockParam, MessageParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";
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
 * the conversation itself (the todo_write calls, and the note a compaction leaves), so a resumed
 * session gets it back by `restore`.
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

  /** The list as the conversation left it (see latestTodos). */
  restore(messages: readonly MessageParam[]): void {
    const todos = latestTodos(messages);
    if (todos) this.set(todos);
    else this.clear();
  }
}

/** Starts the note compaction leaves beside its summary; the list follows as todo_write's JSON input. */
const CARRIED_NOTE = "[The todo list when the conversation was compacted; todo_write replaces it as before:]\n";

/**
 * The list a conversation left: the input of its last todo_write call that succeeded, or, before
 * any since, the list a compaction carried over (todoNoteFor). Undefined when it never had one.
 */
export function latestTodos(messages: readonly MessageParam[]): TodoItem[] | undefined {
  const failed = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_result" && block.is_error) failed.add(block.tool_use_id);
  }
  for (const message of [...messages].reverse()) {
    if (typeof message.content === "string") continue;
    for (const block of [...message.content].reverse()) {
      const input = block.type === "tool_use" && block.name === TODO_WRITE && message.role === "assistant" && !failed.has(block.id) ? block.input : carriedInput(block);
      const parsed = input === undefined ? undefined : v.safeParse(TodoWriteInput, input);
      if (parsed?.success) return parsed.output.todos;
    }
  }
  return undefined;
}

/**
 * Compaction replaces the todo_write calls with a summary; this note goes with it, so the model
 * still sees its plan and a resumed session gets the list back (latestTodos reads it). None when
 * the conversation had no list, or an empty one.
 */
export function todoNoteFor(messages: readonly MessageParam[]): TextBlockParam | undefined {
  const todos = latestTodos(messages);
  return todos?.length ? { type: "text", text: `${CARRIED_NOTE}${JSON.stringify({ todos })}` } : undefined;
}

function carriedInput(block: ContentBlockParam): unknown {
  if (block.type !== "text" || !block.text.startsWith(CARRIED_NOTE)) return undefined;
  try {
    return JSON.parse(block.text.slice(CARRIED_NOTE.length));
  } catch {
    return undefined;
  }
}

/** How many are done, of how many: `2/5`. */
export function todoProgress(todos: readonly TodoItem[]): string {
  return `${todos.filter((todo) => todo.status === "completed").length}/${todos.length}`;
}
