import { expect, test } from "bun:test";
import { reply, resultText, text, toolResultsOf, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { BUN, MODERN_SERVER } from "../../helpers/paths.ts";
import type { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * A server's question answered in the REPL at a real terminal: the model (the Messages API
 * stand-in) calls the modern fixture's `ask_name`, which answers `input_required` with a form; the
 * REPL asks the permission question, then the form, one after the other, and the server's greeting
 * reaches the model.
 */
const repl = replUnderTest();
let terminal: PtyTerminal | undefined;

function startRepl(servers: Record<string, unknown>, eventDelayMs = 0): PtyTerminal {
  repl.startStandIn(
    [reply(text("Asking for the name."), toolUse("mcp__modern__ask_name", {})), (request) => reply(text(`The server said: ${resultText(toolResultsOf(request)[0])}`))],
    { eventDelayMs },
  );
  return repl.pty({ servers });
}

/** Waits until the last line of the screen (or the last two, for a question wrapped at 120 columns) starts with `question`, then types the answer. */
async function answer(pty: PtyTerminal, question: string, typed: string): Promise<void> {
  await pty.waitFor((screen) => [1, 2].some((rows) => screen.trimEnd().split("\n").slice(-rows).join("").startsWith(question)), question);
  pty.type(typed);
}

test("the modern fixture's ask_name form is answered at the terminal, and the answer reaches the server", async () => {
  terminal = startRepl({ modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] } });
  await terminal.waitForText("MCP: 1 server(s)");
  terminal.type("ask me my name");
  await answer(terminal, "Allow mcp__modern__ask_name?", "y");
  const form = await terminal.waitForText("Name* (text) [Ada]:");
  expect(form).toContain("modern asks: What is your name?");
  await answer(terminal, "Name*", "Grace");
  await answer(terminal, "Favourite colour (1-3) [green]", "");
  await answer(terminal, "Formal greeting (y/n) [no]", "y");
  const review = await terminal.waitForText("Send? [y]es / [e]dit / [n]o (decline) / Esc (cancel)");
  expect(review).toContain(['You are about to send to modern:', '  Name: "Grace"', "  Favourite colour: green", "  Formal greeting: yes"].join("\n"));
  terminal.type("y");
  const screen = await terminal.waitForText("The server said: Good day Grace (green)");
  expect(screen).toContain("(answered modern)");
  // The question came after the permission answer and the tool's start line, and before its result line.
  expect(screen.indexOf("Allow mcp__modern__ask_name?")).toBeLessThan(screen.indexOf("⏺ mcp__modern__ask_name {}"));
  expect(screen.indexOf("⏺ mcp__modern__ask_name {}")).toBeLessThan(screen.indexOf("modern asks:"));
  expect(screen.indexOf("(answered modern)")).toBeLessThan(screen.indexOf('⎿ mcp__modern__ask_name → "Good day Grace (green)"'));
}, 60_000);

test("Esc at the form cancels the question; the server hears cancel and the turn goes on", async () => {
  terminal = startRepl({ modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] } });
  await terminal.waitForText("MCP: 1 server(s)");
  terminal.type("ask me my name");
  await answer(terminal, "Allow mcp__modern__ask_name?", "y");
  await terminal.waitForText("Name* (text) [Ada]:");
  terminal.send("Escape");
  const screen = await terminal.waitForText("The server said: You cancelled the question.");
  expect(screen).toContain("(cancelled)");
}, 60_000);

test("a line typed while the model streams does not answer the permission question that follows it", async () => {
  // Events 300 ms apart: after the text shows, the tool call still takes seconds to arrive.
  terminal = startRepl({ modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] } }, 300);
  await terminal.waitForText("MCP: 1 server(s)");
  terminal.type("ask me my name");
  await terminal.waitForText("Asking for the name.");
  terminal.type("y");
  const screen = await terminal.waitForText("Allow mcp__modern__ask_name? [y]es / [n]o / [a]lways for this tool in this project / [A] in all projects");
  expect(screen).toContain("(1 line(s) typed before this question were dropped: answer it below)");
  // Still waiting for an answer: the typed-ahead y did not allow the call.
  // The question wraps between words at the terminal's width: its rows are joined by the blank they broke at.
  expect(screen.trimEnd().split("\n").slice(-2).join(" ")).toBe("Allow mcp__modern__ask_name? [y]es / [n]o / [a]lways for this tool in this project / [A] in all projects / [s] yes for this session");
  terminal.type("n");
  await terminal.waitForText("What should cat-code do instead?");
  terminal.type("never mind");
  await terminal.waitForText("The server said: The user declined to run mcp__modern__ask_name");
}, 60_000);
