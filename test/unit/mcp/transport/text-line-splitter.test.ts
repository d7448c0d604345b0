import { describe, expect, test } from "bun:test";
import { TextLineSplitter } from "../../../../src/mcp/transport/text-line-splitter.ts";
import { StderrRing } from "../../../../src/mcp/transport/stderr-ring.ts";

const encode = (text: string) => new TextEncoder().encode(text);

function splitAll(chunks: Uint8Array[]): string[] {
  const splitter = new TextLineSplitter();
  const lines: string[] = [];
  for (const chunk of chunks) splitter.push(chunk, (line) => lines.push(line));
  splitter.finish((line) => lines.push(line));
  return lines;
}

describe("TextLineSplitter", () => {
  test("splits several lines in one chunk and one line across many chunks", () => {
    expect(splitAll([encode("a\nb\nc")])).toEqual(["a", "b", "c"]);
    expect(splitAll([encode("he"), encode("ll"), encode("o\nwor"), encode("ld\n")])).toEqual(["hello", "world"]);
  });

  test("a multi-byte character split between chunks decodes whole", () => {
    const bytes = encode("你好\n");
    expect(splitAll([bytes.subarray(0, 1), bytes.subarray(1, 4), bytes.subarray(4)])).toEqual(["你好"]);
  });

  test("CRLF endings and a leading BOM are dropped", () => {
    expect(splitAll([encode("\uFEFF{\"a\":1}\r\nnext\r\n")])).toEqual(['{"a":1}', "next"]);
  });

  test("a 50 MB single line fed in 16 KB chunks is one line, in linear time", () => {
    const line = "x".repeat(50 * 1024 * 1024);
    const bytes = encode(`${line}\n`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 16 * 1024) chunks.push(bytes.subarray(i, i + 16 * 1024));
    const started = performance.now();
    const lines = splitAll(chunks);
    // A re-scan of the buffer per chunk would take minutes here; a generous bound against that.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(lines.length).toBe(1);
    expect(lines[0]?.length).toBe(line.length);
  });
});

describe("StderrRing", () => {
  test("keeps only the last lines, each bounded in length", () => {
    const ring = new StderrRing(3);
    for (let i = 0; i < 10; i++) ring.push(encode(`line ${i}\n`));
    ring.push(encode(`${"y".repeat(5000)}\n`));
    const tail = ring.tail();
    expect(tail.slice(0, 2)).toEqual(["line 8", "line 9"]);
    expect(tail[2]?.length).toBe(501);
  });

  test("a stream without newlines does not grow without bound", () => {
    const ring = new StderrRing(2);
    for (let i = 0; i < 1000; i++) ring.push(encode("z".repeat(1000)));
    ring.end();
    expect(ring.tail().every((line) => line.length <= 501)).toBe(true);
  });
});
