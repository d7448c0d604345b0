/**
 * The prompt's line editor against a headless xterm.js of 20 columns: what a person would see after
 * each key (wrapping, redraws in the middle of a wrapped line, news above the prompt), and Tab with
 * a completer that answers later than the keys typed after it.
 */
import { Terminal as HeadlessTerminal } from "@xterm/headless";
import { expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { LineEditor } from "../../../src/repl/line-editor.ts";
import type { LineCompleter } from "../../../src/repl/tab-completion.ts";
import type { MenuSource } from "../../../src/repl/completion-menu.ts";
import { LineHistory } from "../../../src/repl/line-history.ts";
import { KeyParser } from "../../../src/repl/terminal-keys.ts";
import { waitFor } from "../../helpers/wait-for.ts";

const COLS = 20;

function editorAt(history: string[] = []) {
  const emulator = new HeadlessTerminal({ cols: COLS, rows: 10, allowProposedApi: true });
  const output = Object.assign(new PassThrough(), { columns: COLS });
  let pending = Promise.resolve();
  output.on("data", (chunk: Buffer) => {
    const text = chunk.toString();
    pending = pending.then(() => new Promise<void>((resolve) => emulator.write(text, resolve)));
  });
  const entered: string[] = [];
  const editor = new LineEditor(output, new LineHistory(history), {
    enter: (line) => entered.push(line),
    ctrlDOnEmptyLine: () => entered.push("<ctrl-d>"),
    suspend: () => {},
  });
  const parser = new KeyParser();
  const keys = (data: string) => {
    for (const token of parser.feed(data)) editor.key(token);
  };
  const screen = async () => {
    // What was written reaches the emulator after this turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    await pending;
    const buffer = emulator.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true).trimEnd() ?? "");
    return { text: lines.join("\n").trimEnd(), cursor: [buffer.cursorX, buffer.cursorY] };
  };
  return { editor, keys, screen, entered };
}

test("a line longer than the terminal wraps, and an edit in its first row redraws every row", async () => {
  const { editor, keys, screen, entered } = editorAt();
  editor.start("> ");
  keys("abcdefghijklmnopqrstuvwxyz");
  expect((await screen()).text).toBe("> abcdefghijklmnopqr\nstuvwxyz");
  keys("\u0001\u0006X");
  const shown = await screen();
  expect(shown.text).toBe("> aXbcdefghijklmnopq\nrstuvwxyz");
  expect(shown.cursor).toEqual([4, 0]);
  keys("\u0005\u0015");
  expect((await screen()).text).toBe(">");
  keys("done\r");
  expect(entered).toEqual(["done"]);
});

test("news printed above keeps the half-typed line under it", async () => {
  const { editor, keys, screen } = editorAt();
  editor.start("> ");
  keys("half typed");
  editor.printAbove("MCP: ready");
  expect((await screen()).text).toBe("MCP: ready\n> half typed");
});

test("Up and Down recall earlier lines; Ctrl-D deletes forward, and on an empty line is the reader's", async () => {
  const { editor, keys, screen, entered } = editorAt(["first", "second"]);
  editor.start("> ");
  keys("\u001b[A\u001b[A");
  expect((await screen()).text).toBe("> first");
  keys("\u001b[B\u001b[B");
  expect((await screen()).text).toBe(">");
  keys("ab\u0002\u0004\r");
  keys("\u0004");
  expect(entered).toEqual(["a", "<ctrl-d>"]);
});

test("Tab inserts what every candidate shares, a second Tab lists them; keys typed while it waits come after", async () => {
  const { editor, keys, screen, entered } = editorAt();
  let answer: (value: [string[], string]) => void = () => {};
  const asked: string[] = [];
  const complete: LineCompleter = (line) => {
    asked.push(line);
    return new Promise((resolve) => (answer = resolve));
  };
  editor.start("> ", "", complete);
  keys("/mcp lo\t");
  keys("X");
  answer([["/mcp login", "/mcp logout"], "/mcp lo"]);
  await waitFor(async () => (await screen()).text === "> /mcp logX", "the common start, then the key typed meanwhile");
  keys("\u007f\t");
  keys("\t");
  answer([["/mcp login", "/mcp logout"], "/mcp log"]);
  await waitFor(() => asked.length === 3, "the second Tab's question");
  answer([["/mcp login", "/mcp logout"], "/mcp log"]);
  // One per row: two do not fit in 20 columns.
  let shown = "";
  const listed = "> /mcp log\n/mcp login\n/mcp logout\n\n> /mcp log";
  await waitFor(async () => (shown = (await screen()).text) === listed, () => `the candidates listed under the line; the screen:\n${shown}`);
  keys("\r");
  expect(entered).toEqual(["/mcp log"]);
});

test("wide characters take two columns: one that does not fit starts the next row, and the cursor stays on it", async () => {
  const { editor, keys, screen } = editorAt();
  editor.start("> ");
  keys("a你好你好你好你好你好");
  expect((await screen()).text).toBe("> a你好你好你好你好\n你好");
  keys("\u0002Y");
  const shown = await screen();
  expect(shown.text).toBe("> a你好你好你好你好\n你Y好");
  expect(shown.cursor).toEqual([3, 1]);
});

test("Ctrl-C while a Tab waits drops the completion and the keys typed meanwhile; keys typed after it start the new line", async () => {
  const { editor, keys, screen, entered } = editorAt();
  let answer: (value: [string[], string]) => void = () => {};
  editor.start("> ", "", () => new Promise((resolve) => (answer = resolve)));
  keys("read @do\t");
  keys("X");
  // Ctrl-C: the reader's discardLine clears the line.
  editor.clear();
  keys("hi");
  answer([["readme.md"], "do"]);
  expect((await screen()).text).toBe("> hi");
  // Undo goes back to the start of the new line, never into the discarded one.
  keys("\u001f\u001f");
  expect((await screen()).text).toBe(">");
  keys("hi\r");
  expect(entered).toEqual(["hi"]);
});

test("the keys readline had: Ctrl-_ undoes, Ctrl-^ redoes, Alt+Delete cuts the word after the cursor, Alt+Y goes back through the cuts", async () => {
  const { editor, keys, screen, entered } = editorAt();
  editor.start("> ");
  keys("one two");
  keys("\u0017");
  expect((await screen()).text).toBe("> one");
  keys("\u001f");
  expect((await screen()).text).toBe("> one two");
  keys("\u001e");
  expect((await screen()).text).toBe("> one");
  keys("\u0001\u001b[3;3~");
  expect((await screen()).text).toBe(">");
  // The cuts, newest first: "one ", "two". Ctrl-Y puts back the newest, Alt+Y the one before.
  keys("\u0019\u001by");
  expect((await screen()).text).toBe("> two");
  keys("\r");
  expect(entered).toEqual(["two"]);
});

test("Ctrl-R searches the history in place of the prompt: Enter takes the line found, Esc puts back the line typed", async () => {
  const { editor, keys, screen, entered } = editorAt(["git status", "npm test", "git diff"]);
  editor.start("> ");
  keys("dra");
  keys("\u0012git");
  expect((await screen()).text).toBe("(reverse-i-search)`g\nit': git diff");
  keys("\u0012");
  expect((await screen()).text).toBe("(reverse-i-search)`g\nit': git status");
  keys("\r");
  expect((await screen()).text).toBe("> git status");
  keys(" -s\r");
  expect(entered).toEqual(["git status -s"]);
  editor.start("> ");
  keys("dra\u0012npm\u001b");
  expect((await screen()).text).toContain("> dra");
  keys("\u0012npm\u0007");
  expect((await screen()).text).toContain("> dra");
  // Another key takes the line found and then acts: Ctrl-A goes to its start.
  keys("\u0012npm\u0001X\r");
  expect(entered).toEqual(["git status -s", "Xnpm test"]);
});

test("the live menu: drawn under the line as its source answers, Down then Tab takes a row, Ctrl-R and Enter clear it", async () => {
  const { editor, keys, screen, entered } = editorAt(["/help me"]);
  const source: MenuSource = async (line) =>
    line.startsWith("/") ? { word: line, items: ["/help", "/hello"].filter((value) => value.startsWith(line)).map((value) => ({ value, description: "" })) } : undefined;
  editor.start("> ", "", undefined, source);
  keys("/he");
  await waitFor(async () => (await screen()).text === "> /he\n› /help\n  /hello", "the menu under the line");
  expect((await screen()).cursor).toEqual([5, 0]);
  keys("\u001b[B\t");
  await waitFor(async () => (await screen()).text === "> /hello\n› /hello", "the row taken, the menu asked again");
  keys("\u0012");
  // 20 columns: the search's prompt wraps; no menu row is left under it.
  expect((await screen()).text).toBe("(reverse-i-search)`'\n: /hello");
  keys("\u0007");
  expect((await screen()).text).toBe("> /hello");
  keys("\r");
  expect(entered).toEqual(["/hello"]);
});
