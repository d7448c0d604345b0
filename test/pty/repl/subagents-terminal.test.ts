import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hang, reply, resultText, text, toolResultsOf, toolUse, type RecordedRequest, type Reply } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** A subagent at a real terminal: its type from .claude/agents, its permission question naming it, /agents. */
const repl = replUnderTest();

test("a subagent's tool call asks in the parent's terminal, naming the subagent; /agents lists the project's type", async () => {
  const project = repl.tempDir();
  mkdirSync(join(project, ".claude", "agents"), { recursive: true });
  writeFileSync(join(project, ".claude", "agents", "cleaner.md"), "---\nname: cleaner\ndescription: Cleans build output\ntools: Bash\n---\nYou are the cleaner subagent.\n");
  const isChild = (request: RecordedRequest) => JSON.stringify(request.body.system ?? "").includes("You are the cleaner subagent");
  const route = (request: RecordedRequest): Reply => {
    if (isChild(request)) return reply(toolUse("bash", { command: "rm -r build" }));
    return toolResultsOf(request).length ? reply(text(`Subagent said: ${resultText(toolResultsOf(request)[0])}`)) : reply(toolUse("task", { description: "clean", prompt: "Remove build/", subagent_type: "cleaner" }));
  };
  repl.startStandIn([route, route, route]);
  const terminal = repl.pty({ cwd: project });
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("clean up");
  await terminal.waitForText("(subagent cleaner) Allow bash? [y]es / [n]o");
  terminal.type("n");
  // "No" stops the subagent; the parent's model reads why and goes on.
  let screen = await terminal.waitForText("Subagent said: Error: the user declined a tool call of the subagent and stopped it");
  expect(screen).toContain("bash wants to run this command:\n  rm -r build");

  terminal.type("/agents");
  screen = await terminal.waitForText("Cleans build output");
  expect(screen).toMatch(/cleaner +Cleans build output \(model: inherit · tools: Bash; \S*cleaner/);
});

test("each running subagent is a row under the status line; Esc cancels them and the parent's turn goes on, told so", async () => {
  const isChild = (request: RecordedRequest) => JSON.stringify(request.body.system ?? "").includes("subagent of cat-code");
  const route = (request: RecordedRequest): Reply => {
    if (isChild(request)) return request.body.messages.length === 1 ? reply(toolUse("glob", { pattern: "*.md" })) : hang("");
    if (toolResultsOf(request).length) return reply(text(`Parent heard: ${toolResultsOf(request).map((block) => resultText(block).slice(0, 45)).join(" / ")}`));
    return reply(toolUse("task", { description: "find the parser", prompt: "Where is parse?" }), toolUse("task", { description: "read the docs", prompt: "What do the docs say?" }));
  };
  repl.startStandIn([route, route, route, route, route, route]);
  const terminal = repl.pty();
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("look around");
  let screen = await terminal.waitFor((s) => s.includes("read the docs · thinking · 1 tool use") && s.includes("find the parser · thinking · 1 tool use"), "both subagents' rows");
  expect(screen).toMatch(/\n {3}⎿ general-purpose · find the parser · thinking · 1 tool use\n {3}⎿ general-purpose · read the docs · thinking · 1 tool use\n {3}esc cancels the subagents · esc again stops the turn/);

  terminal.send("\u001b");
  screen = await terminal.waitForText("Parent heard: Error: the user cancelled this subagent (Esc) / Error: the user cancelled this subagent (Esc)");
  expect(screen).toContain("⎿ Subagents cancelled (esc again stops the turn)");
  expect(screen).not.toContain("⎿ Cancelled.");
  expect(screen).not.toContain("esc cancels the subagents");
});
