import { expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { LineReader } from "../../../src/repl/line-reader.ts";
import { TerminalQuestions } from "../../../src/repl/terminal-questions.ts";
import { TurnRenderer } from "../../../src/repl/turn-renderer.ts";
import { StatusLine } from "../../../src/terminal/status-line.ts";
import { waitFor } from "../../helpers/wait-for.ts";

test("two questions asked at once are asked one after the other, each between begin and end", async () => {
  const events: string[] = [];
  const questions = new TerminalQuestions({ begin: () => events.push("begin"), end: () => events.push("end") });
  let answerFirst!: (answer: string) => void;
  const first = questions.ask(() => {
    events.push("permission asked");
    return new Promise<string>((resolve) => (answerFirst = resolve));
  });
  const second = questions.ask(async () => {
    events.push("form asked");
    return "form answer";
  });
  await waitFor(() => events.includes("permission asked"), "the first question");
  // The form waits: the permission question has the terminal.
  expect(events).toEqual(["begin", "permission asked"]);
  answerFirst("y");
  expect(await Promise.all([first, second])).toEqual(["y", "form answer"]);
  expect(events).toEqual(["begin", "permission asked", "end", "begin", "form asked", "end"]);
});

test("a question that fails does not stop the next one", async () => {
  const questions = new TerminalQuestions();
  const failed = questions.ask(() => Promise.reject(new Error("output closed")));
  const next = questions.ask(async () => "asked");
  await expect(failed).rejects.toThrow("output closed");
  expect(await next).toBe("asked");
});

test("while held, the renderer keeps the status line off and holds the run's lines until release", () => {
  const written: string[] = [];
  const terminal = { isTTY: true, columns: 80, write: (text: string) => written.push(text) };
  const renderer = new TurnRenderer(terminal, terminal, undefined, new StatusLine(terminal));
  const call = { id: "1", name: "mcp__idx__index", input: {} };
  renderer.onModelRequest();
  renderer.onToolProgress(call, { progress: 1, total: 10 });
  expect(written.join("")).toContain("mcp__idx__index 1/10");
  written.length = 0;
  renderer.hold();
  renderer.onToolProgress(call, { progress: 2, total: 10 });
  renderer.notice("db: warning: disk almost full");
  renderer.onToolResult(call, { content: "indexed", isError: false });
  // Only the erasing of the status line, nothing of the run while the question is open.
  expect(written.join("")).toBe("\r\u001b[J");
  renderer.release();
  const after = written.join("");
  expect(after).toContain("db: warning: disk almost full\n");
  expect(after).toContain("mcp__idx__index");
  expect(after.indexOf("disk almost full")).toBeLessThan(after.indexOf("indexed"));
});

test("lines typed ahead at a terminal are dropped before a question; piped lines are a script's answers and stay", async () => {
  const tty = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
  const ttyOut = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  const atTerminal = new LineReader(tty, ttyOut);
  tty.write("y\r");
  tty.write("half-typ");
  await waitFor(() => atTerminal.currentLine === "half-typ", "the half-typed line");
  expect(atTerminal.dropTypedAhead()).toBe(2);
  const read = atTerminal.read("Allow? ", { remember: false });
  tty.write("n\r");
  expect(await read).toBe("n");
  atTerminal.close();

  const piped = new PassThrough();
  const pipedReader = new LineReader(piped, new PassThrough());
  piped.write("y\n");
  // Wait until the line is queued: a read made now resolves it from the queue.
  await waitFor(() => (pipedReader as unknown as { queue: string[] }).queue.length === 1, "the piped line queued");
  expect(pipedReader.dropTypedAhead()).toBe(0);
  expect(await pipedReader.read("Allow? ")).toBe("y");
  pipedReader.close();
});
