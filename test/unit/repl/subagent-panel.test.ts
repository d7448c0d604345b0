import { expect, test } from "bun:test";
import { RunningSubagents } from "../../../src/agent/subagents/running-subagents.ts";
import { subagentRows } from "../../../src/repl/subagent-panel.ts";
import { plainStyle } from "../../../src/repl/tool-call-line.ts";

test("one row per subagent: its name, description and what it does now; a last row says how to cancel", () => {
  const running = new RunningSubagents();
  const first = running.add("explorer", "find the\nparser", undefined);
  running.add("reviewer", "\u001b[31mreview\u001b[0m the diff", undefined);
  running.update(first.id, { state: "running", tool: "Grep", toolUses: 3 });
  expect(subagentRows(running.list(), plainStyle).map((row) => row.text)).toEqual([
    "   ⎿ explorer · find the parser · Grep · 3 tool uses",
    "   ⎿ reviewer · review the diff · waiting for a free slot",
    "   esc cancels the subagents · esc again stops the turn",
  ]);
  running.update(first.id, { tool: undefined });
  expect(subagentRows(running.list(), plainStyle)[0]?.text).toBe("   ⎿ explorer · find the parser · thinking · 3 tool uses");
});

test("no subagents, no rows; a cancelled one's signal says it was cancelled alone", () => {
  const running = new RunningSubagents();
  expect(subagentRows(running.list(), plainStyle)).toEqual([]);
  const turn = new AbortController();
  const { id, signal } = running.add("explorer", "x", turn.signal);
  expect(running.cancelAll()).toBe(1);
  expect(signal.aborted).toBe(true);
  expect(turn.signal.aborted).toBe(false);
  running.remove(id);
  expect(running.cancelAll()).toBe(0);
});
