import { describe, expect, test } from "bun:test";
import type { ServerStatus } from "../../../src/mcp/pool/server-pool.ts";
import { helpText, KEYS_HELP } from "../../../src/repl/help-text.ts";
import { mcpTable } from "../../../src/repl/mcp-table.ts";
import { ansiStyle } from "../../../src/repl/tool-call-line.ts";
import { TurnRenderer } from "../../../src/repl/turn-renderer.ts";
import { replLoginHint } from "../../../src/terminal/render-status.ts";
import { StatusLine } from "../../../src/terminal/status-line.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";

const COMMANDS = [
  { usage: "/help", help: "Show this list" },
  {
    usage: "/mcp [tools | reconnect [server] | login <server> | logout <server>]",
    help: "Show the MCP servers and their state; /mcp tools lists their tools; /mcp reconnect restarts one (or every FAILED one); /mcp login signs in to a NEEDS-AUTH server",
  },
  { usage: "/model [id]", help: "Show the model and the known ones; /model <id> switches from the next request" },
];

/** Every word of `texts` is whole in `lines`: nothing cut in two at a line's end. */
function expectWholeWords(lines: string[], texts: string[]): void {
  const words = new Set(texts.flatMap((text) => text.split(/\s+/)));
  for (const line of lines) for (const word of line.trim().split(/\s+/)) if (word !== "") expect(words).toContain(word);
}

describe.each([120, 60])("/help at %i columns", (columns) => {
  test("descriptions wrap between words in their column, and a long usage does not widen it", () => {
    const lines = helpText(COMMANDS, [], columns).split("\n");
    for (const line of lines) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(columns);
    expectWholeWords(lines, [...COMMANDS.flatMap((c) => [c.usage, c.help]), ...KEYS_HELP]);
    // The description column starts right after the short usages, not 70 columns in.
    expect(lines[0]).toMatch(/^ {2}\/help {8}Show this list$/);
  });
});

test("/help on a pipe is one row per command, as before", () => {
  const lines = helpText(COMMANDS, [], undefined).split("\n");
  expect(lines[1]).toBe(`  ${COMMANDS[1]!.usage}  ${COMMANDS[1]!.help}`);
});

test("/mcp at a narrow terminal wraps a long row between words, its next lines indented", () => {
  const status: ServerStatus = {
    scope: "user",
    source: "/home/u/.cat-code/mcp.json",
    name: "crashy",
    description: "stdio: ./crashy --with a long list of arguments",
    state: "failed",
    reason: "the server exited with code 7 because its configuration was not found",
    stderr: [],
  };
  const lines = mcpTable([status], replLoginHint, 60);
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(60);
  for (const line of lines.slice(1)) expect(line).toStartWith("      ");
  expectWholeWords(lines, ["crashy FAILED", status.reason, "→ /mcp reconnect crashy", `(${status.description})`]);
});

test("a tool's line wider than the terminal wraps between words, under its text", () => {
  const writes: string[] = [];
  const out = { writes, isTTY: true, columns: 50, write: (chunk: string) => writes.push(chunk) };
  const renderer = new TurnRenderer(out, out, ansiStyle, new StatusLine(out), { clock: new FakeClock() });
  renderer.onModelRequest();
  const input = { query: "a search query with quite a few words in it to make it long" };
  renderer.onToolStart({ id: "t1", name: "mcp__search__find", input });
  renderer.endLine();
  const lines = Bun.stripANSI(writes.filter((w) => !w.startsWith("\r\u001b[J")).join("")).trimEnd().split("\n");
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines) expect(Bun.stringWidth(line)).toBeLessThan(50);
  for (const line of lines.slice(1)) expect(line).toStartWith("  ");
  expectWholeWords(lines, [`⏺ mcp__search__find ${JSON.stringify(input)}`]);
});
