import { describe, expect, test } from "bun:test";
import { ToolRegistry } from "../../src/agent/tool-registry.ts";
import type { ToolCall } from "../../src/agent/agent-observer.ts";
import { TurnRenderer } from "../../src/repl/turn-renderer.ts";
import { StatusLine } from "../../src/terminal/status-line.ts";
import { reply, text, toolUse } from "../../fixtures/anthropic/messages-stand-in.ts";
import { agentWith, fakeTool, stopAfterEach } from "../agent/loop-harness.ts";

const ERASE = "\r\u001b[2K";
const call: ToolCall = { id: "t1", name: "mcp__idx__index", input: {} };

/** What a terminal (or a pipe) was sent, write by write. */
function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, isTTY, columns: 80, write: (chunk: string) => writes.push(chunk) };
}

function liveRenderer(out = sink(true)) {
  return { out, renderer: new TurnRenderer(out, out, undefined, new StatusLine(out)) };
}

describe("the running tool's progress line", () => {
  test("shows progress/total and the message, rewritten in place, and is erased before the result line", () => {
    const { out, renderer } = liveRenderer();
    renderer.onToolProgress(call, { progress: 3, total: 10, message: "indexing" });
    renderer.onToolProgress(call, { progress: 7, total: 10, message: "indexing" });
    renderer.onToolResult(call, { content: "done", isError: false });
    expect(out.writes).toEqual([
      `${ERASE}⏺ mcp__idx__index 3/10 indexing…`,
      `${ERASE}⏺ mcp__idx__index 7/10 indexing…`,
      ERASE,
      '⏺ mcp__idx__index {} → "done"\n',
    ]);
  });

  test("streamed text that did not end its line is ended first, never erased", () => {
    const { out, renderer } = liveRenderer();
    renderer.onText("Let me index");
    renderer.onToolProgress(call, { progress: 1 });
    expect(out.writes.slice(0, 3)).toEqual(["Let me index", "\n", `${ERASE}⏺ mcp__idx__index 1…`]);
  });

  test("a server's warning during the call goes on its own line, the progress line erased first", () => {
    const { out, renderer } = liveRenderer();
    renderer.onToolProgress(call, { progress: 1, total: 2 });
    renderer.notice("⚠ idx: slow disk");
    expect(out.writes).toEqual([`${ERASE}⏺ mcp__idx__index 1/2…`, ERASE, "⚠ idx: slow disk\n"]);
  });

  test("a question (endLine) erases it too", () => {
    const { out, renderer } = liveRenderer();
    renderer.onToolProgress(call, { progress: 1 });
    renderer.endLine();
    expect(out.writes.at(-1)).toBe(ERASE);
  });

  test("the server's message and the tool's name are sanitized", () => {
    const { out, renderer } = liveRenderer();
    renderer.onToolProgress({ ...call, name: "mcp__x\u001b[2J" }, { progress: 1, message: "a\u001b]0;pwned\u0007\nb" });
    expect(out.writes).toEqual([`${ERASE}⏺ mcp__x 1 a b…`]);
  });

  test("on a pipe (no status line, or one that is not a terminal) progress shows nothing", () => {
    const piped = sink(false);
    const renderer = new TurnRenderer(piped, piped, undefined, new StatusLine(piped));
    renderer.onToolProgress(call, { progress: 1, total: 2 });
    new TurnRenderer(piped, piped).onToolProgress(call, { progress: 1, total: 2 });
    renderer.onToolResult(call, { content: "done", isError: false });
    expect(piped.writes).toEqual(['⏺ mcp__idx__index {} → "done"\n']);
  });
});

describe("progress through the agent loop", () => {
  stopAfterEach();

  test("a tool's onProgress reaches the renderer's line while it runs, erased before its result", async () => {
    const registry = new ToolRegistry();
    const { tool } = fakeTool("mcp__idx__index", { readOnly: true });
    registry.register({
      ...tool,
      execute: async (_input, context) => {
        context?.onProgress?.({ progress: 5, total: 10, message: "halfway" });
        return { content: "indexed", isError: false };
      },
    });
    const agent = agentWith([reply(toolUse("mcp__idx__index", {})), reply(text("Done."))], registry);
    const { out, renderer } = liveRenderer();
    const outcome = await agent.run("index", { observer: renderer });
    expect(outcome.status).toBe("done");
    const progressAt = out.writes.indexOf(`${ERASE}⏺ mcp__idx__index 5/10 halfway…`);
    expect(progressAt).toBeGreaterThanOrEqual(0);
    expect(out.writes[progressAt + 1]).toBe(ERASE);
    expect(out.writes[progressAt + 2]).toBe('⏺ mcp__idx__index {} → "indexed"\n');
  });
});
