import { describe, expect, test } from "bun:test";
import { BatchedWriter } from "../../../../src/mcp/transport/batched-writer.ts";

describe("BatchedWriter", () => {
  test("everything written in one tick goes out as one write and one flush, in order", async () => {
    const writes: string[] = [];
    let flushes = 0;
    const writer = new BatchedWriter({ write: (chunk) => writes.push(chunk), flush: () => flushes++ });
    await Promise.all([writer.write("a\n"), writer.write("b\n"), writer.write("c\n")]);
    await writer.write("d\n");
    expect(writes).toEqual(["a\nb\nc\n", "d\n"]);
    expect(flushes).toBe(2);
  });

  test("when the write fails, every caller of that batch fails", async () => {
    const writer = new BatchedWriter({
      write: () => {
        throw new Error("EPIPE");
      },
      flush: () => {},
    });
    const results = await Promise.allSettled([writer.write("a\n"), writer.write("b\n")]);
    expect(results.map((r) => r.status === "rejected" && (r.reason as Error).message)).toEqual(["EPIPE", "EPIPE"]);
  });
});
