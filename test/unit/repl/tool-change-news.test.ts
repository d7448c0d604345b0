import { expect, test } from "bun:test";
import type { ToolDefinition } from "../../../src/mcp/protocol.ts";
import { ToolChangeNews } from "../../../src/repl/tool-change-news.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";

const tools = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } }) as ToolDefinition);

function newsWith(clock: FakeClock) {
  const lines: string[] = [];
  return { lines, news: new ToolChangeNews((line) => lines.push(line), clock, 5_000) };
}

test("the first change of a server is told at once", () => {
  const clock = new FakeClock();
  const { lines, news } = newsWith(clock);
  news.changed("a", tools(2));
  expect(lines).toEqual(["MCP: a now has 2 tool(s)"]);
});

test("changes within the interval are held, and only the latest is told when it ends", () => {
  const clock = new FakeClock();
  const { lines, news } = newsWith(clock);
  news.changed("a", tools(1));
  for (let i = 2; i <= 17; i++) {
    clock.advance(300);
    news.changed("a", tools(i));
  }
  // 4,800 ms in: 16 changes held.
  clock.advance(199);
  expect(lines).toEqual(["MCP: a now has 1 tool(s)"]);
  clock.advance(1);
  expect(lines).toEqual(["MCP: a now has 1 tool(s)", "MCP: a now has 17 tool(s)"]);
  expect(clock.pending()).toBe(0);
});

test("a flood of changes makes at most one line per interval", () => {
  const clock = new FakeClock();
  const { lines, news } = newsWith(clock);
  for (let ms = 0; ms < 60_000; ms += 300) {
    news.changed("a", tools(ms % 7));
    clock.advance(300);
  }
  clock.advance(5_000);
  expect(lines.length).toBeGreaterThanOrEqual(12);
  expect(lines.length).toBeLessThanOrEqual(13);
});

test("each server has its own pace; a server's name is sanitized", () => {
  const clock = new FakeClock();
  const { lines, news } = newsWith(clock);
  news.changed("a", tools(1));
  news.changed("b\u001b]0;pwned\u0007", tools(3));
  news.changed("a", tools(2));
  expect(lines).toEqual(["MCP: a now has 1 tool(s)", "MCP: b now has 3 tool(s)"]);
  clock.advance(5_000);
  expect(lines.at(-1)).toBe("MCP: a now has 2 tool(s)");
});

test("a change after a quiet interval is told at once; close drops what is held and its timer", () => {
  const clock = new FakeClock();
  const { lines, news } = newsWith(clock);
  news.changed("a", tools(1));
  clock.advance(6_000);
  news.changed("a", tools(2));
  expect(lines).toEqual(["MCP: a now has 1 tool(s)", "MCP: a now has 2 tool(s)"]);
  news.changed("a", tools(3));
  expect(clock.pending()).toBe(1);
  news.close();
  news.close();
  expect(clock.pending()).toBe(0);
  clock.advance(10_000);
  expect(lines).toHaveLength(2);
});
