/**
 * /clear, /resume and /rewind replace the conversation: the deferred tools it loaded and its todo
 * list follow it, SessionStart hears a new session, and each session file records only its own.
 * Driven in this process: a runtime recording to real session files in a temp home, the slash
 * commands run as the REPL runs them, no request sent.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, realpathSync, rmSync } from "node:fs";
import type { AgentLoop } from "../../../src/agent/agent-loop.ts";
import type { TodoItem } from "../../../src/agent/todo-list.ts";
import type { Tool } from "../../../src/agent/tool.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { AgentRuntime } from "../../../src/repl/agent-runtime.ts";
import { ReplRecording } from "../../../src/repl/repl-recording.ts";
import { runRewind } from "../../../src/repl/rewind-command.ts";
import { runSlashCommand, type SlashContext } from "../../../src/repl/slash-commands.ts";
import { tempDir } from "../../helpers/paths.ts";

const savedKey = process.env.ANTHROPIC_API_KEY;
let dirs: string[] = [];
beforeEach(() => (process.env.ANTHROPIC_API_KEY = "sk-test"));
afterEach(() => {
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedKey;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const CREATE = "mcp__tracker__create_issue";
const LIST = "mcp__tracker__list_issues";

function serverTool(name: string): Tool {
  return {
    name,
    description: `${name} on tracker`,
    inputSchema: { type: "object" },
    isReadOnly: true,
    deferrable: true,
    origin: { server: "tracker", namePrefix: "mcp__tracker__" },
    execute: async () => ({ content: "", isError: false }),
  };
}

/** A REPL's runtime and recording as repl-controller wires them, with the tracker's tools deferred. */
function replSession() {
  const home = tempDir("cat-code-replaced-home-");
  const cwd = realpathSync(tempDir("cat-code-replaced-cwd-"));
  dirs.push(home, cwd);
  const recording = new ReplRecording({ home, cwd, model: "claude-test", onError: (line) => expect(line).toBe("") });
  const runtime = new AgentRuntime({
    model: "claude-test",
    cwd,
    pool: new ServerPool([]),
    permissions: { decide: async () => "allow" } as never,
    toolSearch: "always",
    onAgent: (agent) => recording.record(agent),
    sessionFolder: () => recording.sessionFolder(),
    session: () => recording.session(),
  });
  for (const name of [CREATE, LIST]) runtime.registry.register(serverTool(name));
  // SessionStart's hooks run commands: what is checked here is only which source it is told.
  const started: string[] = [];
  runtime.hooks.sessionStart = async (source) => void started.push(source);
  const agent = runtime.agentOrMissingKey() as AgentLoop;
  const printed: string[] = [];
  const answers: Array<string | null> = [];
  const context: SlashContext = {
    runtime,
    print: (line) => printed.push(line),
    cancellable: (work) => work(new AbortController().signal),
    ask: async () => answers.shift() ?? null,
    sessions: { home, cwd, recording },
  };
  let calls = 0;
  /** One prompt whose model wrote a todo list (todo_write, as the tool runs it) and loaded a tool. */
  const turn = async (prompt: string, todos: TodoItem[], load: string) => {
    runtime.beginCheckpoint(prompt);
    agent.conversation.addUserText(prompt);
    const id = `toolu_${++calls}`;
    agent.conversation.addAssistant([{ type: "tool_use", id, name: "todo_write", input: { todos } } as never]);
    const result = await runtime.registry.get("todo_write")!.execute({ todos });
    agent.conversation.addToolResults([{ type: "tool_result", tool_use_id: id, content: result.content as string }]);
    runtime.requestTools.load([load]);
    agent.conversation.addAssistant([{ type: "text", text: `done: ${prompt}`, citations: null }]);
  };
  const file = () => recording.session().transcriptPath!;
  const loaded = () => runtime.requestTools.loadedTools().map((tool) => tool.name);
  return { runtime, agent, context, answers, printed, started, turn, file, loaded };
}

const todo = (content: string): TodoItem => ({ content, status: "in_progress", activeForm: content });
const lines = (path: string) => readFileSync(path, "utf8").trim().split("\n").map((line) => JSON.parse(line));

test("/clear in a REPL that saves sessions empties the loaded tools and the todo list, tells SessionStart 'clear', and leaves the old file as it was", async () => {
  const { runtime, agent, context, started, turn, file, loaded } = replSession();
  await turn("plan the release", [todo("Tag it")], CREATE);
  const first = file();
  const firstText = readFileSync(first, "utf8");

  await runSlashCommand("/clear", context);
  expect(loaded()).toEqual([]);
  expect(runtime.todos.items).toEqual([]);
  expect(started).toEqual(["clear"]);
  expect(file()).not.toBe(first);

  // The new session records its own loaded tools; the first file hears nothing more.
  agent.conversation.addUserText("again");
  runtime.requestTools.load([LIST]);
  expect(lines(file()).filter((line) => line.type === "tools-loaded")).toEqual([{ type: "tools-loaded", names: [LIST] }]);
  expect(readFileSync(first, "utf8")).toBe(firstText);
});

test("/resume puts back that session's loaded tools and todo list in place of the current one's, and tells SessionStart 'resume'", async () => {
  const { runtime, agent, context, answers, started, turn, file, loaded } = replSession();
  await turn("plan the release", [todo("Tag it")], CREATE);
  const first = file();
  await runSlashCommand("/clear", context);
  await turn("triage", [todo("Read the issues")], LIST);
  const second = file();
  const secondText = readFileSync(second, "utf8");

  answers.push("1");
  await runSlashCommand("/resume", context);
  expect(file()).toBe(first);
  expect(loaded()).toEqual([CREATE]);
  expect(runtime.todos.items.map((item) => item.content)).toEqual(["Tag it"]);
  expect(started).toEqual(["clear", "resume"]);

  // What follows is the resumed session's: the session left stays as it was.
  agent.conversation.addUserText("go on");
  runtime.requestTools.load([LIST]);
  expect(lines(first).at(-1)).toEqual({ type: "tools-loaded", names: [CREATE, LIST] });
  expect(readFileSync(second, "utf8")).toBe(secondText);
});

test("/rewind of the conversation brings back the todo list as it was before the prompt", async () => {
  const { runtime, context, started, turn } = replSession();
  await turn("plan the release", [todo("Tag it")], CREATE);
  await turn("now the notes", [todo("Write the notes")], LIST);
  await runRewind("1", { ...context, ask: async () => "2" });
  expect(context.runtime.conversationMessages()).toHaveLength(4);
  expect(runtime.todos.items.map((item) => item.content)).toEqual(["Tag it"]);
  expect(started).toEqual([]);
});
