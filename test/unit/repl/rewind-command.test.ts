/**
 * /rewind's choices, driven in this process: an AgentRuntime whose conversation and tools are used
 * directly (no request is sent), and answers given through `ask`.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentLoop } from "../../../src/agent/agent-loop.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { AgentRuntime } from "../../../src/repl/agent-runtime.ts";
import { runRewind } from "../../../src/repl/rewind-command.ts";
import { tempDir } from "../../helpers/paths.ts";

const savedKey = process.env.ANTHROPIC_API_KEY;
beforeEach(() => (process.env.ANTHROPIC_API_KEY = "sk-test"));
afterEach(() => {
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedKey;
});

/** A runtime saving its checkpoints in a temp session folder, and a way to play a prompt whose tool writes a file. */
function session() {
  const cwd = realpathSync(tempDir("cat-code-rewind-cmd-"));
  const folder = join(tempDir("cat-code-rewind-home-"), "session");
  const runtime = new AgentRuntime({ model: "claude-test", cwd, pool: new ServerPool([]), permissions: { decide: async () => "allow" } as never, sessionFolder: () => folder });
  const agent = runtime.agentOrMissingKey() as AgentLoop;
  const prompt = async (text: string, file?: string) => {
    runtime.beginCheckpoint(text);
    agent.conversation.addUserText(text);
    if (file) await runtime.registry.get("write_file")!.execute({ path: file, content: `${text}\n` });
    agent.conversation.addAssistant([{ type: "text", text: `done: ${text}`, citations: null }]);
  };
  const printed: string[] = [];
  const run = (args: string, answers: Array<string | null>) =>
    runRewind(args, { runtime, print: (line) => printed.push(line), cancellable: (work) => work(new AbortController().signal), ask: async () => answers.shift() ?? null });
  return { cwd, agent, prompt, run, printed };
}

test("/rewind <n> picks that prompt; conversation only leaves the files as they are", async () => {
  const { cwd, agent, prompt, run, printed } = session();
  await prompt("one", "a.txt");
  await prompt("two", "b.txt");
  await prompt("three");
  await run("2", ["2"]);
  expect(printed).toContain("The conversation is back to before: two (2 message(s) kept).");
  expect(agent.conversation.length).toBe(2);
  expect([existsSync(join(cwd, "a.txt")), existsSync(join(cwd, "b.txt"))]).toEqual([true, true]);
});

test("after the conversation was replaced (compaction), only the files can be restored to a prompt it no longer holds", async () => {
  const { cwd, agent, prompt, run, printed } = session();
  writeFileSync(join(cwd, "a.txt"), "before\n");
  await prompt("one");
  await prompt("two", "a.txt");
  agent.conversation.replace([{ role: "user", content: "a summary" }, { role: "assistant", content: [{ type: "text", text: "ok" }] }]);
  await run("", ["1", "1"]);
  expect(printed).toContain("The conversation was compacted or cleared since that prompt: only the files can be restored.");
  expect(printed).toContain("Restored 1 file(s): a.txt");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("before\n");
  expect(agent.conversation.length).toBe(2);
});

test("a number out of range is asked again; Enter rewinds nothing; a prompt's escape sequences are not shown raw", async () => {
  const { agent, prompt, run, printed } = session();
  await prompt("evil \u001b]0;title\u0007 prompt");
  await run("", ["9", ""]);
  expect(printed).toContain("Type a number from 1 to 1, or Enter for none.");
  expect(printed.at(-1)).toBe("Nothing was rewound.");
  expect(printed.join("\n")).not.toContain("\u001b");
  expect(agent.conversation.length).toBe(2);
});

test("nothing to rewind before the first prompt", async () => {
  const { run, printed } = session();
  await run("", []);
  expect(printed).toEqual(["Nothing to rewind: no prompt was sent in this session yet (or it is not saved)."]);
});
