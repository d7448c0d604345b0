import { describe, expect, test } from "bun:test";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { AnswerDisplay } from "../../../src/repl/answer-display.ts";
import { TurnRenderer } from "../../../src/repl/turn-renderer.ts";
import { StatusLine } from "../../../src/terminal/status-line.ts";
import { reply, text } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { agentWith, stopAfterEach } from "../../helpers/loop-harness.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";

function terminal(isTTY = true) {
  const writes: string[] = [];
  return { writes, isTTY, columns: 80, write: (chunk: string) => writes.push(chunk) };
}

/** The lines written, without the status line's redraws and erasures. */
function linesOf(writes: string[]): string {
  return writes.filter((w) => !w.startsWith("\r\u001b[J")).join("");
}

function live() {
  const out = terminal();
  const renderer = new TurnRenderer(out, out, undefined, new StatusLine(out), { clock: new FakeClock() });
  renderer.onModelRequest();
  return { out, renderer };
}

describe("thinking, usage and compaction", () => {
  test("thinking is folded into one line once it is over, its text never shown; the status line counts its lines", () => {
    const { out, renderer } = live();
    renderer.onThinking("First I will read the file.\nThen I will");
    renderer.onThinking(" edit it.\nSecret plan \u001b[2J");
    expect(out.writes.at(-1)).toContain("thinking (3 lines)");
    renderer.onText("Here is the answer.\n");
    renderer.endLine();
    expect(linesOf(out.writes)).toBe("✻ Thought for 3 lines\nHere is the answer.\n");
  });

  test("on a pipe, the folded line too, and no status line", () => {
    const out = terminal(false);
    const renderer = new TurnRenderer(out, out);
    renderer.onModelRequest();
    renderer.onThinking("one line");
    renderer.endLine();
    expect(out.writes).toEqual(["✻ Thought for 1 line\n"]);
  });

  test("the turn's tokens, in (cache included) and out, add up on the status line", () => {
    const { out, renderer } = live();
    renderer.onUsage({ input: 1000, output: 50, cacheRead: 500, cacheWrite: 0 });
    renderer.onUsage({ input: 200, output: 70, cacheRead: 0, cacheWrite: 0 });
    expect(out.writes.at(-1)).toContain("↑ 1.7k ↓ 120");
  });

  test("a compaction is one line that says why and how much", () => {
    const { out, renderer } = live();
    renderer.onCompaction({ reason: "auto", before: 120, after: 3 });
    expect(linesOf(out.writes)).toBe("✻ Conversation compacted (near the context window): 120 messages → 3\n");
  });

  test("a retry shows a countdown on the status line", () => {
    const { out, renderer } = live();
    renderer.onRetry({ error: { reason: "overloaded" } as never, retry: 1, maxRetries: 4, delayMs: 3000 });
    expect(out.writes.at(-1)).toContain("retrying in 3 s");
  });
});

describe("a stream that fails midway and is retried, through the agent loop", () => {
  stopAfterEach();

  test("the lines shown before the failure are not shown again", async () => {
    const answer = "First line of the answer.\nSecond line of the answer.\n";
    const agent = agentWith(
      [
        { kind: "stream-error", text: "First line of the answer.\nSecond li", type: "overloaded_error", message: "Overloaded" },
        reply(text(answer)),
      ],
      new ToolRegistry(),
    );
    const out = terminal(false);
    const renderer = new TurnRenderer(out, out);
    const outcome = await agent.run("hello", { observer: renderer });
    renderer.endLine();
    expect(outcome.status).toBe("done");
    const shown = out.writes.join("");
    expect(shown.split("First line of the answer.").length).toBe(2);
    expect(shown.split("Second line of the answer.").length).toBe(2);
    expect(shown).toMatch(/^First line of the answer\.\n⎿ .*Overloaded.*retrying in .*\nSecond line of the answer\.\n$/);
  });
});

describe("how the REPL shows answers", () => {
  test("Markdown at a terminal; plain with NO_COLOR, with markdown: false, or when piped", async () => {
    const shows = async (options: { isTerminal: boolean; env?: Record<string, string>; markdown?: boolean }) => {
      const writes: string[] = [];
      const sink = { isTTY: options.isTerminal, columns: 80, write: (t: string) => writes.push(t) };
      const renderer = await new AnswerDisplay({ output: sink, ...options, env: options.env ?? {} }).renderer();
      renderer.onModelRequest();
      renderer.onText("Some **bold** text.\n");
      renderer.endLine();
      return writes.filter((w) => !w.startsWith("\r\u001b[J")).join("");
    };
    expect(await shows({ isTerminal: true })).not.toContain("**");
    expect(await shows({ isTerminal: true, env: { NO_COLOR: "1" } })).toBe("Some **bold** text.\n");
    expect(await shows({ isTerminal: true, markdown: false })).toBe("Some **bold** text.\n");
    expect(await shows({ isTerminal: false })).toBe("Some **bold** text.\n");
  });
});
