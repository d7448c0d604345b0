import { expect, test } from "bun:test";
import { gatedText, reply, text, type Step } from "../../../fixtures/anthropic/messages-stand-in.ts";
import type { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * An answer shown as it streams, at a real terminal: the stand-in model sends each chunk only when
 * the test lets it go, so the screen is checked mid-answer by waiting for it, not for time.
 */
const repl = replUnderTest();

const STATUS_LINE = /^ [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (.*) · (\d+) s/;

async function startRepl(steps: Step[]): Promise<PtyTerminal> {
  repl.startStandIn(steps);
  const terminal = repl.pty();
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  return terminal;
}

test("a long code block shows its first lines, highlighted, before its last one has arrived; the status line stays below", async () => {
  const lines = Array.from({ length: 12 }, (_, i) => `const value${i} = ${i};`);
  const answer = gatedText(["Here is the code:\n\n```ts\n", ...lines.map((line) => `${line}\n`), "```\n\nDone.\n"]);
  const terminal = await startRepl([answer.reply]);
  terminal.type("write the code");
  answer.release();
  answer.release();
  answer.release();
  // The status line is redrawn right after the rows: waited for with them.
  let screen = await terminal.waitFor((s) => s.includes("const value1 = 1;") && STATUS_LINE.test(s.split("\n").at(-1)!), "the first lines, the status line below");
  expect(screen).toContain("Here is the code:");
  expect(screen).toContain("  const value0 = 0;");
  expect(screen).not.toContain("value2");
  expect(screen).not.toContain("```");
  expect(STATUS_LINE.exec(screen.split("\n").at(-1)!)?.[1]).toContain("writing");
  answer.release();
  screen = await terminal.waitForText("const value2 = 2;");
  expect(screen).not.toContain("value3");
  while (answer.released < lines.length + 2) answer.release();
  screen = await terminal.waitFor((s) => s.includes("Done.") && s.endsWith(">"), "the whole answer and the prompt");
  for (const line of lines) expect(screen.split(line).length).toBe(2);
  expect(screen).not.toContain("```");
  expect(screen.split("\n").filter((row) => STATUS_LINE.test(row))).toEqual([]);
});

test("a long paragraph shows its full rows as it grows, wrapped between words", async () => {
  const words = Array.from({ length: 60 }, (_, i) => `word${i}`);
  const answer = gatedText([`${words.slice(0, 30).join(" ")} `, `${words.slice(30).join(" ")}\n`]);
  const terminal = await startRepl([answer.reply]);
  terminal.type("write a paragraph");
  answer.release();
  let screen = await terminal.waitForText("word0 word1");
  expect(screen).not.toContain("word29");
  answer.release();
  screen = await terminal.waitFor((s) => s.includes("word59") && s.endsWith(">"), "the whole paragraph");
  const rows = screen.split("\n").filter((row) => row.includes("word"));
  expect(rows.length).toBeGreaterThan(2);
  expect(rows.join(" ")).toBe(words.join(" "));
  for (const row of rows) expect(row).toMatch(/^(word\d+ ?)+$/);
});

test("Esc keeps the partial answer in the conversation: the model gets it back, then the note, then the next prompt", async () => {
  const answer = gatedText(["Partial answer:\n\n```\nline one\n", "line two\n", "line three, never sent\n"]);
  const terminal = await startRepl([answer.reply, reply(text("Understood."))]);
  terminal.type("start something");
  answer.release();
  answer.release();
  await terminal.waitForText("line two");
  terminal.send("Escape");
  let screen = await terminal.waitFor((s) => s.includes("⎿ Cancelled.") && s.endsWith(">"), "the turn cancelled and the prompt");
  expect(screen).toContain("Partial answer:");
  expect(screen).toContain("  line one\n  line two");
  terminal.type("go on differently");
  screen = await terminal.waitFor((s) => s.includes("Understood.") && s.endsWith(">"), "the next answer");
  const messages = repl.standIn!.requests[1]!.body.messages.map((message) => ({
    role: message.role,
    text: (message.content as { text?: string }[]).map((block) => block.text),
  }));
  expect(messages).toEqual([
    { role: "user", text: ["start something"] },
    { role: "assistant", text: ["Partial answer:\n\n```\nline one\nline two\n"] },
    { role: "user", text: ["[Request interrupted by user]", "go on differently"] },
  ]);
});

test("/help at 120 columns: descriptions wrap between words beside short usages, none cut in two", async () => {
  const terminal = await startRepl([]);
  await terminal.resize(120, 40);
  terminal.type("/help");
  const screen = await terminal.waitFor((s) => s.includes("Leave cat-code") && s.endsWith(">"), "the help");
  const help = screen.slice(screen.lastIndexOf("> /help")).split("\n").slice(1, -1);
  for (const row of help) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(120);
  expect(help.find((row) => row.includes("/help "))).toMatch(/^ {2}\/help {2,40}Show this list$/);
  // A wrapped description's rows begin with a whole word, under the description column.
  const mcpRows = help.slice(help.findIndex((row) => row.trimStart().startsWith("/mcp [")) + 1);
  expect(mcpRows[0]).toMatch(/^ {10,44}Show the MCP servers/);
  expect(mcpRows.slice(0, 2).join(" ").replace(/\s+/g, " ")).toContain("/mcp tools lists their tools;");
});
