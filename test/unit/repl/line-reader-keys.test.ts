import { expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { LineReader } from "../../../src/repl/line-reader.ts";
import { PASTE_OFF, PASTE_ON } from "../../../src/repl/terminal-keys.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/** A LineReader at a fake terminal: keys are written to `keys`, what it shows collects in `shown()`. */
function atTerminal(options: ConstructorParameters<typeof LineReader>[2] = {}) {
  /** The raw modes set, in order. */
  const raw: boolean[] = [];
  const keys = Object.assign(new PassThrough(), { isTTY: true, setRawMode: (on: boolean) => raw.push(on) });
  const screen = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  let written = "";
  screen.on("data", (chunk: Buffer) => (written += chunk.toString()));
  const reader = new LineReader(keys, screen, options);
  return { reader, type: (text: string) => keys.write(text), shown: () => written, raw };
}

test("bracketed paste is switched on at start, off for the pager and at close", async () => {
  const { reader, shown } = atTerminal();
  expect(shown()).toStartWith(PASTE_ON);
  reader.suspend();
  expect(shown().endsWith(PASTE_OFF)).toBe(true);
  reader.resume();
  expect(shown().endsWith(PASTE_ON)).toBe(true);
  reader.close();
  expect(shown()).toContain(PASTE_OFF);
  expect(shown().lastIndexOf(PASTE_OFF)).toBeGreaterThan(shown().lastIndexOf(PASTE_ON));
});

test("Ctrl-D at a question answers nothing and the reader goes on; at an empty prompt it ends input", async () => {
  const { reader, type } = atTerminal();
  const answer = reader.read("Allow? ", { remember: false });
  type("\u0004");
  expect(await answer).toBeNull();
  const prompt = reader.read("> ");
  type("still here\r");
  expect(await prompt).toBe("still here");
  const last = reader.read("> ");
  type("\u0004");
  expect(await last).toBeNull();
  expect(await reader.read("> ")).toBeNull();
  reader.close();
});

test("Ctrl-D with text on the line edits it (deletes forward) instead of ending anything", async () => {
  const { reader, type } = atTerminal();
  const prompt = reader.read("> ");
  type("abc\u0002\u0004\r");
  expect(await prompt).toBe("ab");
  reader.close();
});

test("a paste is one line with its breaks; the history keeps the label", async () => {
  const history: string[] = [];
  const { reader, type } = atTerminal({ onHistoryLine: (line) => history.push(line) });
  const prompt = reader.read("> ");
  type("fix \u001b[200~a\r  b\u001b[201~\r");
  expect(await prompt).toBe("fix a\n  b");
  expect(history).toEqual(["fix [pasted 2 lines]"]);
  reader.close();
});

test("a line typed while nobody asks is queued, announced, and shown at the next prompt as what is sent", async () => {
  const queued: string[] = [];
  const { reader, type, shown } = atTerminal({ onTypedAhead: (line) => queued.push(line) });
  type("next one\rhalf");
  await waitFor(() => queued.length === 1, "the queued line");
  expect(queued).toEqual(["next one"]);
  // Nothing was echoed while nobody asked.
  expect(shown()).not.toContain("next one");
  expect(await reader.read("> ")).toBe("next one");
  expect(shown()).toContain("> next one\n");
  const second = reader.read("> ");
  type(" typed\r");
  expect(await second).toBe("half typed");
  // A paste typed ahead is announced and shown by its label, and sent whole.
  type("see \u001b[200~x\ry\u001b[201~\r");
  await waitFor(() => queued.length === 2, "the queued paste");
  expect(queued[1]).toBe("see [pasted 2 lines]");
  expect(await reader.read("> ")).toBe("see x\ny");
  expect(shown()).toContain("> see [pasted 2 lines]\n");
  reader.close();
});

test("a message of several lines: Alt+Enter continues it, Ctrl-C drops all of it, Ctrl-D in it does nothing", async () => {
  const { reader, type, shown } = atTerminal();
  reader.onInterrupt(() => reader.currentLine && reader.discardLine());
  const first = reader.read("> ");
  type("one\u001b\r\u0004two");
  await waitFor(() => reader.currentLine === "one\ntwo", "two lines typed");
  expect(shown()).toMatch(/\n.*… .*two$/);
  type("\u0003");
  await waitFor(() => reader.currentLine === "", "the message dropped");
  type("fresh\r");
  expect(await first).toBe("fresh");
  reader.close();
});

test("Ctrl-Z leaves raw mode while stopped and comes back to it with the line; keys still flow where the stop is ignored", async () => {
  const rawWhenStopped: boolean[] = [];
  // A stop that is ignored (PID 1, `trap '' TSTP`): it returns at once, as process.kill does then.
  const { reader, type, shown, raw } = atTerminal({ stopProcess: () => rawWhenStopped.push(raw.at(-1) as boolean) });
  const prompt = reader.read("> ");
  type("still\u001a");
  await waitFor(() => rawWhenStopped.length === 1, "the stop");
  expect(rawWhenStopped).toEqual([false]);
  expect(raw.at(-1)).toBe(true);
  // The line is drawn again after the stop.
  expect(shown().lastIndexOf("> still")).toBeGreaterThan(shown().indexOf("> still"));
  type(" here");
  await waitFor(() => reader.currentLine === "still here", "keys typed after Ctrl-Z", { timeoutMs: 2000 });
  type("\r");
  expect(await prompt).toBe("still here");
  reader.close();
});
