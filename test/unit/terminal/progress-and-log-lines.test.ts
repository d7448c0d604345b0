import { describe, expect, test } from "bun:test";
import type { ServerLogEntry } from "../../../src/mcp/client/server-log.ts";
import { CallFeedback } from "../../../src/terminal/call-feedback.ts";
import { progressText } from "../../../src/terminal/progress-text.ts";
import { MAX_WARNING_LINES_PER_SERVER, serverLogLine, ServerLogLines } from "../../../src/terminal/server-log-lines.ts";
import { StatusLine } from "../../../src/terminal/status-line.ts";
import { cutToColumns } from "../../../src/terminal/terminal-text.ts";

const ERASE = "\r\u001b[J";

/** A stream that records what was written; a terminal when `isTTY`. */
function stream(isTTY: boolean, columns = 80) {
  const writes: string[] = [];
  return { writes, isTTY, columns, write: (text: string) => writes.push(text), get text() { return writes.join(""); } };
}

describe("progressText", () => {
  test("progress of total and the message, ending in an ellipsis while the call runs", () => {
    expect(progressText({ progress: 3, total: 10, message: "indexing" })).toBe("3/10 indexing…");
    expect(progressText({ progress: 42, message: "files" })).toBe("42 files…");
    expect(progressText({ progress: 1, total: 3 })).toBe("1/3…");
    expect(progressText({ progress: 1 / 3, total: 1, message: "reading..." })).toBe("0.33/1 reading...");
  });

  test("a server's message cannot drive the terminal or break the line", () => {
    const text = progressText({ progress: 1, message: "a\u001b]0;title\u0007b\nc\r\u001b[2Jd\u202ee" });
    expect(text).toBe("1 ab cde…");
  });
});

describe("StatusLine", () => {
  test("on a terminal, each update rewrites the line in place, and clear() erases it", () => {
    const out = stream(true);
    const line = new StatusLine(out);
    line.show("1/3…");
    line.show("2/3…");
    line.clear();
    line.clear();
    expect(out.writes).toEqual([`${ERASE}1/3…\r`, `${ERASE}2/3…\r`, ERASE]);
  });

  test("never wider than the terminal, so it never wraps (wide characters count twice)", () => {
    const out = stream(true, 20);
    new StatusLine(out).show("你好".repeat(30));
    const shown = out.text.slice(ERASE.length, -1);
    expect(Bun.stringWidth(shown)).toBeLessThanOrEqual(19);
    expect(shown.endsWith("…")).toBe(true);
  });

  test("not on a terminal, it writes nothing at all", () => {
    const out = stream(false);
    const line = new StatusLine(out);
    line.show("1/3…");
    line.clear();
    expect(out.writes).toEqual([]);
  });

  test("a line printed above it keeps the status line below", () => {
    const out = stream(true);
    const line = new StatusLine(out);
    line.show("1/3…");
    line.printAbove("⚠ s: low disk");
    expect(out.writes).toEqual([`${ERASE}1/3…\r`, ERASE, "⚠ s: low disk\n", `${ERASE}1/3…\r`]);
  });
});

describe("serverLogLine", () => {
  const entry = (level: ServerLogEntry["level"], data: string, logger?: string): ServerLogEntry => ({ server: "files", level, data, ...(logger ? { logger } : {}) });

  test("warning and worse get one line naming the server; the level is said above warning", () => {
    expect(serverLogLine(entry("warning", "disk almost full"))).toBe("⚠ files: disk almost full");
    expect(serverLogLine(entry("error", "cannot read x", "indexer"))).toBe("⚠ files: error: indexer: cannot read x");
  });

  test("below warning nothing is shown (the debug log has it)", () => {
    for (const level of ["debug", "info", "notice"] as const) expect(serverLogLine(entry(level, "x"))).toBeUndefined();
  });

  test("the server's text is sanitized and stays on one line", () => {
    expect(serverLogLine(entry("critical", "a\nb\u001b[31mc\u0007"))).toBe("⚠ files: critical: a bc");
  });
});

describe("ServerLogLines", () => {
  const warning = (server: string, data: string): ServerLogEntry => ({ server, level: "warning", data });

  test("a flooding server gets a bounded number of lines, then one saying the rest are hidden; others are not affected", () => {
    const lines = new ServerLogLines();
    const shown = Array.from({ length: 1000 }, (_, i) => lines.lineFor(warning("noisy", `w${i}`))).filter((line) => line !== undefined);
    expect(shown).toHaveLength(MAX_WARNING_LINES_PER_SERVER + 1);
    expect(shown.at(-1)).toBe("⚠ noisy: more warnings not shown (CAT_CODE_DEBUG=1 logs them all)");
    expect(lines.lineFor(warning("quiet", "one"))).toBe("⚠ quiet: one");
  });

  test("reset() gives every server its lines back (the REPL resets at each prompt)", () => {
    const lines = new ServerLogLines(1);
    expect(lines.lineFor(warning("s", "a"))).toBe("⚠ s: a");
    expect(lines.lineFor(warning("s", "b"))).toContain("more warnings not shown");
    expect(lines.lineFor(warning("s", "c"))).toBeUndefined();
    lines.reset();
    expect(lines.lineFor(warning("s", "d"))).toBe("⚠ s: d");
  });

  test("messages below warning neither show nor use up the budget", () => {
    const lines = new ServerLogLines(1);
    for (let i = 0; i < 10; i++) expect(lines.lineFor({ server: "s", level: "info", data: "x" })).toBeUndefined();
    expect(lines.lineFor(warning("s", "real"))).toBe("⚠ s: real");
  });
});

describe("CallFeedback (mcp call's stderr)", () => {
  test("on a terminal: progress in place, a warning above it, all erased before the result", () => {
    const out = stream(true);
    const feedback = new CallFeedback(out);
    feedback.progress({ progress: 3, total: 10, message: "indexing" });
    feedback.log({ server: "idx", level: "warning", data: "slow disk" });
    feedback.log({ server: "idx", level: "info", data: "not shown" });
    feedback.done();
    expect(out.writes).toEqual([`${ERASE}3/10 indexing…\r`, ERASE, "⚠ idx: slow disk\n", `${ERASE}3/10 indexing…\r`, ERASE]);
  });

  test("not on a terminal: no progress at all, but a warning still gets its line", () => {
    const out = stream(false);
    const feedback = new CallFeedback(out);
    feedback.progress({ progress: 3, total: 10 });
    feedback.log({ server: "idx", level: "error", data: "failed" });
    feedback.done();
    expect(out.text).toBe("⚠ idx: error: failed\n");
  });
});

describe("cutToColumns", () => {
  test("leaves a short line alone and cuts a long one by columns", () => {
    expect(cutToColumns("abc", 3)).toBe("abc");
    expect(cutToColumns("abcdef", 4)).toBe("abc…");
    expect(cutToColumns("😀😀😀", 5)).toBe("😀😀…");
  });
});
