import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  hang,
  reply,
  resultText,
  text,
  toolResultsOf,
  toolUse,
  type ContentBlock,
  type MessagesStandIn,
  type RecordedRequest,
  type Step,
} from "../../../fixtures/anthropic/messages-stand-in.ts";
import { tempDir } from "../../helpers/paths.ts";
import type { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * The REPL's input at a real terminal (a pseudo-terminal read through xterm.js) against the Messages
 * API stand-in: pastes, newline keys, typing during a turn, Esc, Ctrl-C, Ctrl-D, `/path`, `@file`, `!cmd`.
 */
const repl = replUnderTest();
let terminal: PtyTerminal | undefined;
let standIn: MessagesStandIn | undefined;

async function startRepl(steps: Step[], project = tempDir()): Promise<PtyTerminal> {
  standIn = repl.startStandIn(steps);
  const started = repl.pty({ cwd: project });
  await started.waitFor((screen) => lastLine(screen) === ">", "the prompt");
  return started;
}

// The prompt's line: the last that is not one of the live menu's rows (`› /help …`, `  /mcp …`), which may be under it.
const lastLine = (screen: string) => screen.split("\n").findLast((line) => !/^(› | {2})/.test(line)) ?? "";

/** The text of the last user message of a request (its text blocks, joined by a blank line). */
function lastUserText(request: RecordedRequest | undefined): string {
  const content = request?.body.messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
  if (typeof content === "string") return content;
  return content
    .filter((block: ContentBlock) => block.type === "text")
    .map((block) => block.text as string)
    .join("\n\n");
}

/** The last text block of the last user message: what the user's latest line became. */
function lastUserBlock(request: RecordedRequest | undefined): string {
  return lastUserText(request).split("\n\n").at(-1) ?? "";
}

test("a multi-line paste is one message, sent verbatim, shown as [pasted N lines]", async () => {
  terminal = await startRepl([reply(text("One message came."))]);
  terminal.send("explain ");
  // Terminals paste line breaks as CR; the indentation must survive.
  terminal.paste("def f():\r    return 1\r\r        # deep\r");
  await terminal.waitFor((screen) => lastLine(screen) === "> explain [pasted 4 lines]", "the paste's label in the line");
  terminal.send(" please", "Enter");
  await terminal.waitForText("One message came.");
  expect(standIn!.requests).toHaveLength(1);
  expect(lastUserText(standIn!.requests[0])).toBe("explain def f():\n    return 1\n\n        # deep\n please");
  expect(terminal.screen()).toContain("> explain [pasted 4 lines] please");
}, 30_000);

test("a one-line paste goes into the line as it is", async () => {
  terminal = await startRepl([reply(text("Got it."))]);
  terminal.paste("just one line");
  await terminal.waitFor((screen) => lastLine(screen) === "> just one line", "the pasted line");
  terminal.send("Enter");
  await terminal.waitForText("Got it.");
  expect(lastUserText(standIn!.requests[0])).toBe("just one line");
}, 30_000);

test("Ctrl-Z where the stop is dropped (no job control: this REPL leads its own session) leaves the prompt taking keys", async () => {
  terminal = await startRepl([reply(text("Still listening."))]);
  terminal.send("before ", "\u001a");
  terminal.send("after");
  await terminal.waitFor((screen) => lastLine(screen) === "> before after", "the keys typed after Ctrl-Z in the line");
  terminal.send("Enter");
  await terminal.waitForText("Still listening.");
  expect(lastUserText(standIn!.requests[0])).toBe("before after");
}, 30_000);

test("\\ + Enter, Alt+Enter and Shift+Enter start a new line of the same message", async () => {
  terminal = await startRepl([reply(text("Four lines arrived."))]);
  terminal.type("first\\");
  await terminal.waitFor((screen) => lastLine(screen) === "…", "the continuation prompt");
  terminal.send("second", "M-Enter");
  await terminal.waitFor((screen) => screen.includes("… second\n…"), "a third line");
  terminal.send("third", "S-Enter");
  await terminal.waitFor((screen) => screen.includes("… third\n…"), "a fourth line");
  terminal.type("fourth");
  await terminal.waitForText("Four lines arrived.");
  expect(standIn!.requests).toHaveLength(1);
  expect(lastUserText(standIn!.requests[0])).toBe("first\nsecond\nthird\nfourth");
}, 30_000);

test("text typed while a turn runs is queued visibly as the next prompt, never merged; Esc stops the turn", async () => {
  terminal = await startRepl([hang("Working on it"), reply(text("Answer to XYZ."))]);
  terminal.type("a long task");
  await standIn!.hanging;
  // An unfinished line of the answer waits (it is rendered when whole); the status line says it is coming.
  await terminal.waitForText("writing");
  terminal.type("XYZ");
  await terminal.waitForText("⎿ queued as your next prompt: XYZ");
  terminal.send("half typed");
  terminal.send("Escape");
  await terminal.waitForText("⎿ Cancelled.");
  await standIn!.hangAbandoned;
  const screen = await terminal.waitForText("Answer to XYZ.");
  expect(screen).toContain("> XYZ\n");
  expect(lastUserBlock(standIn!.requests[1])).toBe("XYZ");
  // The half-typed text waits at the next prompt, in view, to be finished or sent.
  await terminal.waitFor((s) => lastLine(s) === "> half typed", "the half-typed text at the prompt");
  expect(standIn!.requests).toHaveLength(2);
  // The line typed during the turn was a prompt like any other: Up brings it back.
  terminal.send("\u0015", "Up");
  await terminal.waitFor((s) => lastLine(s) === "> XYZ", "the queued prompt recalled");
}, 30_000);

test("Ctrl-D at a permission question answers no and returns to the prompt; at an empty prompt it exits on a fresh line", async () => {
  const project = tempDir();
  terminal = await startRepl(
    [reply(toolUse("bash", { command: "touch MADE" })), (request) => reply(text(`Tool said: ${resultText(toolResultsOf(request)[0]).slice(0, 40)}`))],
    project,
  );
  terminal.type("make a file");
  await terminal.waitForText("Allow bash? [y]es / [n]o / [a]lways");
  terminal.send("C-d");
  await terminal.waitForText("What should cat-code do instead?");
  // The answer's line is ended: what follows does not run on after the question.
  expect(terminal.screen()).toMatch(/yes for this session\s*\n⏺ bash/);
  await terminal.waitFor((screen) => lastLine(screen) === ">", "the prompt again");
  expect(standIn!.requests).toHaveLength(1);
  terminal.send("C-d", "C-d");
  await terminal.waitForText("[exit 0]");
  expect(terminal.exitColumn).toBe(0);
}, 30_000);

test("Ctrl-C at an empty prompt asks for a second one, which exits on a fresh line", async () => {
  terminal = await startRepl([]);
  terminal.send("C-c");
  await terminal.waitForText("(Ctrl-C again to exit)");
  terminal.send("C-c");
  await terminal.waitForText("[exit 0]");
  expect(terminal.exitColumn).toBe(0);
}, 30_000);

test("Ctrl-D at an empty prompt asks for a second one; a Ctrl-C in between makes it a first press again", async () => {
  terminal = await startRepl([]);
  terminal.send("C-d");
  await terminal.waitForText("(Ctrl-D again to exit)");
  terminal.send("C-c");
  await terminal.waitForText("(Ctrl-C again to exit)");
  terminal.send("C-d");
  await terminal.waitFor((screen) => screen.split("(Ctrl-D again to exit)").length === 3, "a second hint, not an exit");
  expect(terminal.screen()).not.toContain("[exit");
  terminal.send("C-d");
  await terminal.waitForText("[exit 0]");
  expect(terminal.exitColumn).toBe(0);
}, 30_000);

test("/usr/bin/ls fails is a prompt, and / alone lists the commands", async () => {
  terminal = await startRepl([reply(text("Let me look at ls."))]);
  terminal.type("/");
  await terminal.waitForText("Show this list");
  expect(terminal.screen()).toContain("!cmd runs a shell command; @path attaches a file");
  expect(terminal.screen()).not.toContain("Unknown command");
  terminal.type("/usr/bin/ls fails");
  await terminal.waitForText("Let me look at ls.");
  expect(lastUserText(standIn!.requests[0])).toBe("/usr/bin/ls fails");
}, 30_000);

test("Tab completes @ file paths: folders end in /, hidden names only after a dot, .gitignore respected", async () => {
  const project = tempDir();
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "src", "app.ts"), "export {};\n");
  mkdirSync(join(project, "dist"));
  writeFileSync(join(project, ".gitignore"), "dist/\n");
  writeFileSync(join(project, ".env.example"), "A=1\n");
  terminal = await startRepl([], project);
  terminal.send("read @s", "Tab");
  await terminal.waitFor((screen) => lastLine(screen) === "> read @src/", "the folder completed");
  terminal.send("Tab");
  await terminal.waitFor((screen) => lastLine(screen) === "> read @src/app.ts", "the file completed");
  terminal.send("C-c");
  await terminal.waitFor((screen) => lastLine(screen) === ">", "an empty line");
  terminal.send("@d", "Tab");
  terminal.send("x");
  // Tab added nothing: dist/ is ignored.
  await terminal.waitFor((screen) => lastLine(screen) === "> @dx", "the ignored folder left out");
  terminal.send("C-c");
  await terminal.waitFor((screen) => lastLine(screen) === ">", "an empty line");
  terminal.send("@.e", "Tab");
  await terminal.waitFor((screen) => lastLine(screen) === "> @.env.example", "the hidden file offered after a dot");
}, 30_000);

test("@path attaches the file's content; a binary file is refused with a note", async () => {
  const project = tempDir();
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "src", "app.ts"), "export const answer = 42;\n");
  writeFileSync(join(project, "logo.png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
  terminal = await startRepl([reply(text("Read it."))], project);
  terminal.type("what is in @src/app.ts and @logo.png?");
  const screen = await terminal.waitForText("Read it.");
  expect(screen).toContain("⎿ not attached: logo.png is a binary file");
  expect(screen).toMatch(/⎿ attached src\/app\.ts \(\d+ B\)/);
  const sent = lastUserText(standIn!.requests[0]);
  expect(sent).toStartWith("what is in @src/app.ts and @logo.png?");
  expect(sent).toContain('<file path="src/app.ts">\nexport const answer = 42;\n');
  expect(sent).not.toContain("PNG");
}, 30_000);

test("!cmd runs the command without a question, shows its output, and the next prompt carries it", async () => {
  const project = tempDir();
  terminal = await startRepl([reply(text("I see the output."))], project);
  terminal.type("!echo hello from the shell; echo oops >&2; exit 3");
  const screen = await terminal.waitForText("⎿ exit code 3");
  expect(screen).toContain("hello from the shell\noops");
  expect(screen).not.toContain("Allow");
  expect(standIn!.requests).toHaveLength(0);
  terminal.type("what happened?");
  await terminal.waitForText("I see the output.");
  const sent = lastUserText(standIn!.requests[0]);
  expect(sent).toContain("<command>echo hello from the shell; echo oops >&2; exit 3</command>");
  expect(sent).toContain('<output exit_code="3">\nhello from the shell\noops\n</output>');
  expect(sent).toEndWith("what happened?");
}, 30_000);
