import { expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { LineReader } from "../../../src/repl/line-reader.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";

/** A LineReader at a fake terminal with a fake clock; `doubles` counts the Esc Esc it reported. */
function atTerminal() {
  const clock = new FakeClock();
  const keys = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
  const screen = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  let written = "";
  screen.on("data", (chunk: Buffer) => (written += chunk.toString()));
  const history: string[] = [];
  const reader = new LineReader(keys, screen, { clock, onHistoryLine: (line) => history.push(line) });
  let doubles = 0;
  reader.onDoubleEscapeAtEmptyPrompt(() => doubles++);
  /** Writes keys and lets the reader take them (a PassThrough delivers on the next tick). */
  const type = async (text: string) => {
    keys.write(text);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { reader, clock, type, doubles: () => doubles, shown: () => written, history };
}

test("two Esc within a second at an empty prompt are Esc Esc; further apart, or one read of both, as it comes", async () => {
  const { reader, clock, type, doubles } = atTerminal();
  void reader.read("> ");
  await type("\u001b");
  clock.advance(1_001);
  await type("\u001b");
  expect(doubles()).toBe(0);
  clock.advance(999);
  await type("\u001b");
  expect(doubles()).toBe(1);
  await type("\u001b\u001b");
  expect(doubles()).toBe(2);
  reader.close();
});

test("not Esc Esc: with text on the line, with a key between, or at a question's answer", async () => {
  const { reader, type, doubles } = atTerminal();
  void reader.read("> ");
  await type("x\u001b\u001b");
  await type("\u007f\u001b");
  await type("a\u007f\u001b");
  expect(doubles()).toBe(0);
  await type("\r");
  void reader.read("Allow? ", { remember: false });
  await type("\u001b\u001b");
  expect(doubles()).toBe(0);
  reader.close();
});

test("the line a key enters for it is shown after the prompt and not kept in the history", async () => {
  const { reader, shown, history } = atTerminal();
  const line = reader.read("> ");
  reader.enterForKey("/rewind");
  expect(await line).toBe("/rewind");
  expect(shown()).toContain("> /rewind\r\n");
  expect(history).toEqual([]);
  reader.close();
});
