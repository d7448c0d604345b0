import { describe, expect, test } from "bun:test";
import { MAX_PROGRESS_MESSAGE_CHARS, ProgressTracker, type ProgressUpdate } from "../../../../src/mcp/client/progress.ts";

function tracked() {
  const tracker = new ProgressTracker();
  const heard: ProgressUpdate[] = [];
  const call = tracker.start((update) => heard.push(update));
  return { tracker, heard, call };
}

describe("ProgressTracker", () => {
  test("every call gets a token of its own", () => {
    const tracker = new ProgressTracker();
    const tokens = new Set(Array.from({ length: 100 }, () => tracker.start(() => {}).token));
    expect(tokens.size).toBe(100);
  });

  test("an update reaches the call holding its token, and only that call", () => {
    const tracker = new ProgressTracker();
    const first: ProgressUpdate[] = [];
    const second: ProgressUpdate[] = [];
    const a = tracker.start((update) => first.push(update));
    tracker.start((update) => second.push(update));
    expect(tracker.handle({ progressToken: a.token, progress: 3, total: 10, message: "indexing" })).toBe(true);
    expect(first).toEqual([{ progress: 3, total: 10, message: "indexing" }]);
    expect(second).toEqual([]);
  });

  test("a token no call holds is ignored: unknown, or released when its call settled", () => {
    const { tracker, heard, call } = tracked();
    expect(tracker.handle({ progressToken: "made-up", progress: 1 })).toBe(false);
    call.release();
    expect(tracker.handle({ progressToken: call.token, progress: 1 })).toBe(false);
    expect(heard).toEqual([]);
    expect(tracker.size).toBe(0);
  });

  test("progress that does not increase is ignored (the spec says it MUST increase)", () => {
    const { tracker, heard, call } = tracked();
    for (const progress of [1, 5, 5, 2, 6]) tracker.handle({ progressToken: call.token, progress });
    expect(heard.map((update) => update.progress)).toEqual([1, 5, 6]);
  });

  test("malformed params are ignored: no number, an infinite one, a wrong type", () => {
    const { tracker, heard, call } = tracked();
    for (const params of [undefined, null, "x", { progressToken: call.token }, { progressToken: call.token, progress: "3" },
      { progressToken: call.token, progress: Infinity }, { progressToken: call.token, progress: 1, total: JSON.parse("1e999") },
      { progressToken: call.token, progress: 1, message: 42 }, { progressToken: { id: 1 }, progress: 1 }]) {
      expect(tracker.handle(params)).toBe(false);
    }
    expect(heard).toEqual([]);
  });

  test("a long message is cut where it enters, never through a surrogate pair", () => {
    const { tracker, heard, call } = tracked();
    const message = `${"a".repeat(MAX_PROGRESS_MESSAGE_CHARS - 2)}😀${"b".repeat(10_000)}`;
    tracker.handle({ progressToken: call.token, progress: 1, message });
    const shown = heard[0]?.message ?? "";
    expect(shown.length).toBeLessThanOrEqual(MAX_PROGRESS_MESSAGE_CHARS);
    expect(shown.endsWith("…")).toBe(true);
    expect(shown).not.toContain("\ufffd");
    expect(Buffer.from(shown).toString()).toBe(shown);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(shown)).toBe(false);
  });

  test("absent total and message stay absent", () => {
    const { tracker, heard, call } = tracked();
    tracker.handle({ progressToken: call.token, progress: 0.5 });
    expect(heard).toEqual([{ progress: 0.5 }]);
    expect("total" in (heard[0] as object)).toBe(false);
  });
});
