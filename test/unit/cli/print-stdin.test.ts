import { expect, test } from "bun:test";
import { readBoundedStdin } from "../../../src/cli/bounded-stdin.ts";
import { printPrompt } from "../../../src/cli/print-prompt.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/** A stdin the test writes to by hand, and never closes unless told. */
function openStdin() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return { stream, write: (text: string) => controller.enqueue(new TextEncoder().encode(text)), end: () => controller.close() };
}

test("a prompt and a stdin left open with nothing on it: -p goes on with the prompt alone after the wait", async () => {
  const clock = new FakeClock();
  const stdin = openStdin();
  let prompt: string | undefined;
  void printPrompt("summarize", { isTTY: false, stream: stdin.stream, clock }).then((p) => (prompt = p));
  await waitFor(() => clock.pending() > 0, "the wait's timer");
  clock.advance(2999);
  // Still waiting: the timer has not fired.
  expect(clock.pending()).toBe(1);
  clock.advance(1);
  await waitFor(() => prompt, "the prompt");
  expect(prompt).toBe("summarize");
});

test("stdin that starts within the wait is read to its end, however long it then takes", async () => {
  const clock = new FakeClock();
  const stdin = openStdin();
  let read: string | undefined;
  void readBoundedStdin(stdin.stream, { firstDataWithinMs: 3000, clock }).then((text) => (read = text));
  stdin.write("part 1\n");
  await waitFor(() => clock.pending() === 0, "the wait's timer cleared");
  clock.advance(60_000);
  stdin.write("part 2\n");
  stdin.end();
  await waitFor(() => read, "the text");
  expect(read).toBe("part 1\npart 2\n");
});

test("stdin over the limit is a usage error, read no further", async () => {
  const stdin = openStdin();
  stdin.write("x".repeat(600));
  stdin.write("x".repeat(600));
  const error = await readBoundedStdin(stdin.stream, { maxBytes: 1000 }).catch((e) => e);
  expect(error.message).toBe("stdin is over 1000 B: give -p a smaller input (or a file's path in the prompt, for the model to read)");
  expect(error.exitCode).toBe(2);
});
