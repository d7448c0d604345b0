import { expect, test } from "bun:test";
import { OutputCollector } from "../../../../src/agent/tools/output-collector.ts";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

test("keeps the head and the last characters, and counts exactly what was dropped between them, across chunks", async () => {
  const chunks = Array.from({ length: 500 }, (_, i) => `${String(i).padStart(4, "0")}|`.repeat(10));
  const whole = chunks.join("");
  const collector = new OutputCollector(streamOf(chunks), 120, 77);
  await collector.done;
  expect(collector.text).toBe(whole.slice(0, 120));
  expect(collector.tail).toBe(whole.slice(-77));
  expect(collector.dropped).toBe(whole.length - 120 - 77);
  expect(collector.kept).toBe(`${whole.slice(0, 120)}\n[… ${(whole.length - 197).toLocaleString("en-US")} characters not kept …]\n${whole.slice(-77)}`);
});

test("without a tail everything past the head is dropped and counted", async () => {
  const collector = new OutputCollector(streamOf(["abc", "defg", "hij"]), 5);
  await collector.done;
  expect([collector.text, collector.tail, collector.dropped]).toEqual(["abcde", "", 5]);
});

test("output within the head is kept whole, with no note", async () => {
  const collector = new OutputCollector(streamOf(["short ", "output"]), 100, 100);
  await collector.done;
  expect(collector.kept).toBe("short output");
});
