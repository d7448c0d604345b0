import { expect, test } from "bun:test";
import { TodoList, type TodoItem } from "../../../src/agent/todo-list.ts";
import { StatusLine } from "../../../src/terminal/status-line.ts";
import { commandFor } from "../../../src/repl/key-bindings.ts";
import { TodoPanel } from "../../../src/repl/todo-panel.ts";
import { plainStyle } from "../../../src/repl/tool-call-line.ts";

const item = (content: string, status: TodoItem["status"]): TodoItem => ({ content, status, activeForm: `${content}ing` });

function panelWith(items: TodoItem[]) {
  const todos = new TodoList();
  todos.set(items);
  return { todos, panel: new TodoPanel(todos, plainStyle) };
}

test("the list under the status line: progress, a mark per status, the current item in its active form", () => {
  const { panel } = panelWith([item("Read", "completed"), item("Fix", "in_progress"), item("Test", "pending")]);
  expect(panel.lines().map((line) => line.text)).toEqual(["   Todos 1/3 · ctrl+t to hide", "   ☒ Read", "   ◼ Fixing", "   ☐ Test"]);
});

test("Ctrl-T hides and shows it; an empty list takes no rows", () => {
  const { panel, todos } = panelWith([item("Read", "pending")]);
  expect(panel.toggle()).toBe(false);
  expect(panel.lines()).toEqual([]);
  expect(panel.toggle()).toBe(true);
  todos.set([]);
  expect(panel.lines()).toEqual([]);
  expect(commandFor("\u0014")).toBe("toggle-todos");
  // Transpose moved to Alt-T.
  expect(commandFor("\u001bt")).toBe("transpose");
});

test("the model's text is sanitized and kept to one row; a long list is a window around the current item", () => {
  const hostile = panelWith([item("evil\u001b]52;c;aGk=\u0007\nline two", "pending")]).panel.lines();
  expect(hostile[1]?.text).not.toContain("\u001b");
  expect(hostile[1]?.text).not.toContain("\n");
  const many = Array.from({ length: 30 }, (_, i) => item(`step ${i}`, i < 20 ? "completed" : i === 20 ? "in_progress" : "pending"));
  const rows = panelWith(many).panel.lines().map((line) => line.text);
  expect(rows.length).toBeLessThanOrEqual(10);
  expect(rows).toContain("   ◼ step 20ing");
  expect(rows).toContain("   ☒ step 19");
  expect(rows[1]).toBe("   ⋮ 19 more above");
  expect(rows.at(-1)).toMatch(/^ {3}⋮ \d+ more$/);
});

test("the status line draws the rows under it, cut to width, and goes back up so erasing takes them all", () => {
  const written: string[] = [];
  const line = new StatusLine({ isTTY: true, columns: 20, write: (text: string) => written.push(text) });
  line.below = () => [{ text: "   ☐ a very long item that does not fit" }, { text: "   ☐ b", paint: (t) => `<${t}>` }];
  line.show("working");
  expect(written.at(-1)).toBe("\r\u001b[Jworking\n   ☐ a very long i…\n<   ☐ b>\u001b[2A\r");
  line.clear();
  expect(written.at(-1)).toBe("\r\u001b[J");
});
