import { expect, test } from "bun:test";
import { reply, text, toolResultsOf, toolUse } from "../../../../fixtures/anthropic/messages-stand-in.ts";
import { MAX_TODOS, TodoList } from "../../../../src/agent/todo-list.ts";
import { ToolRegistry } from "../../../../src/agent/tool-registry.ts";
import { TodoWriteTool } from "../../../../src/agent/tools/todo-write-tool.ts";
import { declineAll } from "../../../../src/agent/permission.ts";
import { agentWith, standIn, stopAfterEach } from "../../../helpers/loop-harness.ts";

stopAfterEach();

const PLAN = [
  { content: "Read the failing test", status: "completed", activeForm: "Reading the failing test" },
  { content: "Fix the parser", status: "in_progress", activeForm: "Fixing the parser" },
  { content: "Run the tests", status: "pending", activeForm: "Running the tests" },
];

function withTodos() {
  const todos = new TodoList();
  const registry = new ToolRegistry();
  registry.register(new TodoWriteTool(todos));
  const heard: unknown[] = [];
  todos.onChange((items) => heard.push(items.map((item) => item.status)));
  return { todos, registry, heard };
}

test("the model's todo_write replaces the list, unasked, and gets Claude Code's answer", async () => {
  const { todos, registry, heard } = withTodos();
  // declineAll: a call that needed permission would be refused; todo_write must not need it.
  const agent = agentWith([reply(toolUse("todo_write", { todos: PLAN })), reply(text("Planned."))], registry, { permissions: declineAll });
  const outcome = await agent.run("fix the parser");
  expect(outcome.status).toBe("done");
  expect(todos.items).toEqual(PLAN as typeof todos.items);
  expect(heard).toEqual([["completed", "in_progress", "pending"]]);
  const [result] = toolResultsOf(standIn().requests[1]!);
  expect(result?.is_error).toBeUndefined();
  expect(String(result?.content)).toStartWith("Todos have been modified successfully.");
  // The tool is offered in Claude Code's shape.
  const offered = standIn().requests[0]!.body.tools?.find((tool) => tool.name === "todo_write");
  expect(JSON.stringify(offered?.input_schema)).toContain('"required":["content","status","activeForm"]');
});

test("a bad item is refused with the field that is wrong, and the list stays as it was", async () => {
  const { todos, registry } = withTodos();
  todos.set(PLAN as never);
  const bad = [{ content: "Do it", status: "doing", activeForm: "Doing it" }];
  const agent = agentWith([reply(toolUse("todo_write", { todos: bad })), reply(toolUse("todo_write", { todos: [{ content: " ", status: "pending", activeForm: "x" }] })), reply(text("ok"))], registry);
  await agent.run("plan");
  const [first] = toolResultsOf(standIn().requests[1]!);
  expect(first).toMatchObject({ is_error: true });
  expect(String(first?.content)).toContain("todos.0.status: must be pending, in_progress or completed");
  const [second] = toolResultsOf(standIn().requests[2]!);
  expect(String(second?.content)).toContain("todos.0.content: must not be empty");
  expect(todos.items.map((item) => item.content)).toEqual(PLAN.map((item) => item.content));
});

test("the list is bounded: more than MAX_TODOS items, or an item of a megabyte, is refused", async () => {
  const tool = new TodoWriteTool();
  const many = Array.from({ length: MAX_TODOS + 1 }, (_, i) => ({ content: `step ${i}`, status: "pending", activeForm: `doing ${i}` }));
  expect((await tool.execute({ todos: many })).content).toContain(`at most ${MAX_TODOS} items`);
  const huge = [{ content: "x".repeat(1_000_000), status: "pending", activeForm: "x" }];
  expect((await tool.execute({ todos: huge })).isError).toBe(true);
  expect(tool.todos.items).toEqual([]);
  // Keys older Claude Code versions sent (id, priority) are ignored, not refused.
  expect((await tool.execute({ todos: [{ id: "1", priority: "high", content: "a", status: "pending", activeForm: "b" }] })).isError).toBe(false);
  expect(tool.todos.items).toEqual([{ content: "a", status: "pending", activeForm: "b" }]);
});

test("restore: the list of the conversation's last todo_write that succeeded; none clears it", () => {
  const todos = new TodoList();
  const call = (id: string, content: string) => ({ type: "tool_use" as const, id, name: "todo_write", input: { todos: [{ content, status: "pending", activeForm: content }] } });
  const result = (id: string, isError = false) => ({ type: "tool_result" as const, tool_use_id: id, content: "…", ...(isError ? { is_error: true } : {}) });
  todos.restore([
    { role: "user", content: "plan" },
    { role: "assistant", content: [call("a", "first plan")] },
    { role: "user", content: [result("a")] },
    { role: "assistant", content: [call("b", "second plan")] },
    { role: "user", content: [result("b", true)] },
  ]);
  expect(todos.items.map((item) => item.content)).toEqual(["first plan"]);
  todos.restore([{ role: "user", content: "hello" }]);
  expect(todos.items).toEqual([]);
});
