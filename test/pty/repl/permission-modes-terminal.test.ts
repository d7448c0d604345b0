import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hang, reply, resultText, text, toolResultsOf, toolUse, type RecordedRequest } from "../../../fixtures/anthropic/messages-stand-in.ts";
import type { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * Permission modes and answers at a real terminal, with the Messages API stand-in as the model:
 * Shift+Tab shows the mode in the prompt, plan mode refuses a write with the message the model
 * reads, the plan is accepted with one key, and a bash question is answered with one key.
 */
const repl = replUnderTest();
const SHIFT_TAB = "\u001b[Z";
let terminal: PtyTerminal | undefined;
afterEach(() => (terminal = undefined));

const systemText = (request: RecordedRequest) => JSON.stringify(request.body.system ?? "");
const toolNames = (request: RecordedRequest) => (request.body.tools ?? []).map((tool) => tool.name);
const lastLine = (screen: string) => screen.split("\n").at(-1) ?? "";

test("Shift+Tab cycles default, accept edits and plan mode, shown in the prompt, keeping what was typed", async () => {
  terminal = repl.pty();
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.send("draft");
  await terminal.waitFor((screen) => lastLine(screen) === "> draft", "the typed text");
  terminal.send(SHIFT_TAB);
  await terminal.waitFor((screen) => lastLine(screen) === "[accept edits] > draft", "accept edits in the prompt");
  terminal.send(SHIFT_TAB);
  await terminal.waitFor((screen) => lastLine(screen) === "[plan mode] > draft", "plan mode in the prompt");
  terminal.send(SHIFT_TAB);
  await terminal.waitFor((screen) => lastLine(screen) === "> draft", "back to default");
}, 30_000);

test("Shift+Tab while a turn runs changes the mode at once, says so between the turn's lines and under the status line", async () => {
  const standIn = repl.startStandIn([hang("Working on it")]);
  terminal = repl.pty();
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("go");
  await standIn.hanging;
  terminal.send(SHIFT_TAB);
  await terminal.waitForText("⎿ accept edits on: file edits in the project run without asking (Shift+Tab to cycle)");
  // The prompt that names the mode is off the screen: a row under the status line says it, as Claude Code's does.
  await terminal.waitFor((screen) => lastLine(screen) === "⏵⏵ accept edits on (shift+tab to cycle)", "the mode under the status line");
  terminal.send(SHIFT_TAB);
  await terminal.waitFor((screen) => lastLine(screen) === "⏸ plan mode on (shift+tab to cycle)", "plan mode under the status line");
  terminal.send(SHIFT_TAB);
  await terminal.waitFor((screen) => !screen.includes("(shift+tab to cycle)") && /writing/.test(screen), "no mode row in the default mode");
  terminal.send(SHIFT_TAB);
  await terminal.waitFor((screen) => lastLine(screen) === "⏵⏵ accept edits on (shift+tab to cycle)", "the mode under the status line again");
  terminal.send("C-c");
  await terminal.waitFor((screen) => lastLine(screen) === "[accept edits] >", "the prompt in accept edits mode");
}, 30_000);

test("plan mode: write_file is refused with the message the model reads; the plan accepted with one key ends plan mode", async () => {
  const project = repl.tempDir();
  const standIn = repl.startStandIn([
    reply(toolUse("write_file", { path: "notes.md", content: "too early" })),
    reply(toolUse("exit_plan_mode", { plan: "1. Write notes.md\n2. Say done" })),
    reply(toolUse("write_file", { path: "notes.md", content: "planned" })),
    (request) => reply(text(`Finished: ${resultText(toolResultsOf(request)[0])}`)),
  ]);
  terminal = repl.pty({ cwd: project, args: ["--permission-mode", "plan"] });
  await terminal.waitFor((screen) => lastLine(screen) === "[plan mode] >", "the prompt in plan mode");
  terminal.type("write the notes");
  // The plan is shown whole; `a` accepts it and lets the edits run unasked.
  await terminal.waitForText("Accept this plan? [y]es / [a] yes, and accept edits / [n]o, keep planning");
  expect(terminal.screen()).toContain("  1. Write notes.md\n  2. Say done");
  terminal.send("a");
  await terminal.waitForText("Finished: Created notes.md");
  expect(readFileSync(join(project, "notes.md"), "utf8")).toBe("planned");
  expect(terminal.screen()).not.toContain("Allow write_file?");

  const [first, second, third, fourth] = standIn.requests;
  expect(systemText(first!)).toContain("Plan mode is on");
  expect(toolNames(first!)).toContain("exit_plan_mode");
  expect(resultText(toolResultsOf(second!)[0])).toContain("Plan mode is on: write_file was NOT run");
  expect(resultText(toolResultsOf(third!)[0])).toContain("The user accepted your plan. Plan mode is off. File edits inside the project run without asking.");
  expect(systemText(fourth!)).not.toContain("Plan mode is on");
  expect(toolNames(fourth!)).not.toContain("exit_plan_mode");
  await terminal.waitFor((screen) => lastLine(screen) === "[accept edits] >", "the prompt in accept edits mode");
}, 30_000);

test("the bash question shows the description as text under the command, and a single y (no Enter) runs it; ls runs unasked", async () => {
  const project = repl.tempDir();
  writeFileSync(join(project, "seen.txt"), "x");
  repl.startStandIn([
    reply(toolUse("bash", { command: "ls", description: "List the files" })),
    reply(toolUse("bash", { command: "touch made.txt", description: "Create the marker file" })),
    (request) => reply(text(`Done: ${resultText(toolResultsOf(request)[0])}`)),
  ]);
  terminal = repl.pty({ cwd: project });
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("make the marker");
  const screen = await terminal.waitForText("Allow bash? [y]es / [n]o / [a]lways for 'touch:*' in this project / [A] in all projects / [s] yes for this session");
  expect(screen).toContain("bash wants to run this command:\n  touch made.txt\n  ⎿ Create the marker file");
  expect(screen.slice(screen.indexOf("bash wants to run"))).not.toContain('"description"');
  // The read-only `ls` before it was never asked about.
  expect(screen.match(/Allow bash\?/g)).toHaveLength(1);
  terminal.send("y");
  await terminal.waitForText("Done: [exit code: 0]");
  expect(existsSync(join(project, "made.txt"))).toBe(true);
}, 30_000);
