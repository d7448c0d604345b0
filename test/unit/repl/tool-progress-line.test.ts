import { describe, expect, test } from "bun:test";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import type { ToolCall } from "../../../src/agent/agent-observer.ts";
import { TurnRenderer } from "../../../src/repl/turn-renderer.ts";
import { StatusLine } from "../../../src/terminal/status-line.ts";
import { reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { agentWith, fakeTool, stopAfterEach } from "../../helpers/loop-harness.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";

const ERASE = "\r\u001b[J";
const call: ToolCall = { id: "t1", name: "mcp__idx__index", input: {} };

/** What a terminal (or a pipe) was sent, write by write. */
function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, isTTY, columns: 80, write: (chunk: string) => writes.push(chunk) };
}

/** The status line's text in a write, or undefined when the write is something else. */
function statusIn(write: string): string | undefined {
  return write.startsWith(ERASE) && write.endsWith("\r") && write.length > ERASE.length + 1 ? write.slice(ERASE.length, -1) : undefined;
}

function liveRenderer(out = sink(true)) {
  const renderer = new TurnRenderer(out, out, undefined, new StatusLine(out), { clock: new FakeClock() });
  renderer.onModelRequest();
  return { out, renderer };
}

describe("the running tool's progress on the status line", () => {
  test("the tool's name and its progress/total and message, rewritten in place", () => {
    const { out, renderer } = liveRenderer();
    renderer.onToolStart(call);
    renderer.onToolProgress(call, { progress: 3, total: 10, message: "indexing" });
    renderer.onToolProgress(call, { progress: 7, total: 10, message: "indexing" });
    const shown = out.writes.map(statusIn).filter((s) => s !== undefined);
    expect(shown.at(-2)).toContain("running mcp__idx__index 3/10 indexing…");
    expect(shown.at(-1)).toContain("running mcp__idx__index 7/10 indexing…");
  });

  test("the start line becomes the line with the result, the status line erased first", () => {
    const { out, renderer } = liveRenderer();
    renderer.onToolStart(call);
    expect(out.writes).toContain("⏺ mcp__idx__index {}\n");
    renderer.onToolProgress(call, { progress: 3, total: 10 });
    out.writes.length = 0;
    renderer.onToolResult(call, { content: "done", isError: false });
    expect(out.writes.slice(0, 2)).toEqual([ERASE, `\u001b[1A${ERASE}⏺ mcp__idx__index {} → "done"\n`]);
  });

  test("with lines between the start and the result, the result gets a line of its own naming the tool", () => {
    const { out, renderer } = liveRenderer();
    renderer.onToolStart(call);
    renderer.notice("⚠ idx: slow disk");
    renderer.onToolResult(call, { content: "done", isError: false });
    const lines = out.writes.filter((w) => statusIn(w) === undefined && w !== ERASE);
    expect(lines).toEqual(["⏺ mcp__idx__index {}\n", "⚠ idx: slow disk\n", '  ⎿ mcp__idx__index → "done"\n']);
  });

  test("a question between the start and the result (it writes lines of its own): the result gets a line of its own", () => {
    const { out, renderer } = liveRenderer();
    renderer.onToolStart(call);
    renderer.hold();
    out.write("modern asks: What is your name?\n");
    renderer.release();
    renderer.onToolResult(call, { content: "done", isError: false });
    expect(out.writes.some((w) => w.includes("\u001b[1A"))).toBe(false);
    expect(out.writes).toContain('  ⎿ mcp__idx__index → "done"\n');
  });

  test("the end of a text block shows its last line at once, before any tool starts", () => {
    const { out, renderer } = liveRenderer();
    renderer.onText("Asking for the name.");
    expect(out.writes.join("")).not.toContain("Asking");
    renderer.onTextBlockEnd();
    expect(out.writes).toContain("Asking for the name.\n");
  });

  test("a call that never started (declined at the question) gets the whole line, its arguments included", () => {
    const { out, renderer } = liveRenderer();
    renderer.onToolResult({ ...call, input: { path: "x" } }, { content: "The user declined", isError: true });
    expect(out.writes).toContain('⏺ mcp__idx__index {"path":"x"} → The user declined\n');
  });

  test("a question (endLine) erases it", () => {
    const { out, renderer } = liveRenderer();
    renderer.onToolProgress(call, { progress: 1 });
    renderer.endLine();
    expect(out.writes.at(-1)).toBe(ERASE);
  });

  test("the server's message and the tool's name are sanitized", () => {
    const { out, renderer } = liveRenderer();
    renderer.onToolProgress({ ...call, name: "mcp__x\u001b[2J" }, { progress: 1, message: "a\u001b]0;pwned\u0007\nb" });
    expect(statusIn(out.writes.at(-1) ?? "")).toContain("running mcp__x 1 a b…");
  });

  test("on a pipe (no status line, or one that is not a terminal) progress shows nothing", () => {
    const piped = sink(false);
    const renderer = new TurnRenderer(piped, piped, undefined, new StatusLine(piped));
    renderer.onModelRequest();
    renderer.onToolStart(call);
    renderer.onToolProgress(call, { progress: 1, total: 2 });
    new TurnRenderer(piped, piped).onToolProgress(call, { progress: 1, total: 2 });
    renderer.onToolResult(call, { content: "done", isError: false });
    expect(piped.writes).toEqual(['⏺ mcp__idx__index {} → "done"\n']);
  });
});

describe("progress through the agent loop", () => {
  stopAfterEach();

  test("a tool's onProgress reaches the status line while it runs; the start line is completed with its result", async () => {
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
    renderer.endLine();
    expect(outcome.status).toBe("done");
    const startAt = out.writes.indexOf("⏺ mcp__idx__index {}\n");
    const progressAt = out.writes.findIndex((w) => statusIn(w)?.includes("running mcp__idx__index 5/10 halfway…"));
    const resultAt = out.writes.indexOf(`\u001b[1A${ERASE}⏺ mcp__idx__index {} → "indexed"\n`);
    expect(startAt).toBeGreaterThanOrEqual(0);
    expect(progressAt).toBeGreaterThan(startAt);
    expect(resultAt).toBeGreaterThan(progressAt);
    expect(out.writes).toContain("Done.\n");
    expect(out.writes.at(-1)).toBe(ERASE);
  });
});
