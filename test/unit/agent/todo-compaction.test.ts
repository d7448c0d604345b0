import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { ConversationLog } from "../../../src/agent/conversation-log/conversation-log.ts";
import { recordInto } from "../../../src/agent/conversation-log/conversation-recording.ts";
import { readConversationLog } from "../../../src/agent/conversation-log/read-conversation-log.ts";
import { TodoList, type TodoItem } from "../../../src/agent/todo-list.ts";
import { TodoWriteTool } from "../../../src/agent/tools/todo-write-tool.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { agentWith, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";

/** The todo list lives in the conversation: compaction must carry it, so the model and a resumed session still have it. */
stopAfterEach();
let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "cat-code-todo-compaction-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const PLAN: TodoItem[] = [
  { content: "Read the parser", status: "completed", activeForm: "Reading the parser" },
  { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
];
const UPDATED: TodoItem[] = [...PLAN.slice(0, 1), { ...PLAN[1]!, status: "completed" }];

test("a session compacted twice and resumed keeps its todo list; the model sees it after each compaction", async () => {
  const todos = new TodoList();
  const registry = new ToolRegistry();
  registry.register(new TodoWriteTool(todos));
  const agent = agentWith(
    [
      reply(toolUse("todo_write", { todos: PLAN })),
      reply(text("Planned.")),
      reply(text("First summary.")),
      reply(text("Still on it.")),
      reply(text("Second summary.")),
      reply(toolUse("todo_write", { todos: UPDATED })),
      reply(text("Done.")),
      reply(text("Third summary.")),
    ],
    registry,
  );
  const file = ConversationLog.create({ home, cwd: home, model: "claude-test" });
  recordInto(file, agent);
  await agent.run("fix the parser");
  await agent.compact();
  // The summary replaced the todo_write call; the list goes with it, for the model to see.
  await agent.run("go on");
  const first = standIn().requests[3]!.body.messages[0]!.content as unknown as Array<{ text: string }>;
  expect(first[1]!.text).toStartWith("[The todo list when the conversation was compacted; todo_write replaces it as before:]\n");
  expect(JSON.parse(first[1]!.text.split("\n")[1]!)).toEqual({ todos: PLAN });
  expect(JSON.stringify(agent.conversation.snapshot())).not.toContain('"name":"todo_write"');
  // A second compaction carries the carried list again.
  await agent.compact();
  expect(new TodoList().items).toEqual([]);
  let restored = new TodoList();
  restored.restore(agent.conversation.snapshot());
  expect(restored.items).toEqual(PLAN);
  // A todo_write after the compaction wins over the carried list; a third compaction carries that one.
  await agent.run("finish");
  await agent.compact();
  file.close();

  restored = new TodoList();
  restored.restore(readConversationLog(file.path).messages);
  expect(restored.items).toEqual(UPDATED);
});

test("a conversation without a list, or with an emptied one, carries none", async () => {
  const registry = new ToolRegistry();
  registry.register(new TodoWriteTool());
  const agent = agentWith([reply(toolUse("todo_write", { todos: PLAN })), reply(toolUse("todo_write", { todos: [] })), reply(text("Cleared.")), reply(text("Summary."))], registry);
  await agent.run("plan, then drop it");
  await agent.compact();
  expect(JSON.stringify(agent.conversation.snapshot())).not.toContain("todo list when the conversation was compacted");
  const restored = new TodoList();
  restored.set(PLAN);
  restored.restore(agent.conversation.snapshot());
  expect(restored.items).toEqual([]);
});
