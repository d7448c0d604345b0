import { expect, test } from "bun:test";
import { UsageMeter } from "../../../src/agent/usage-meter.ts";
import { costText } from "../../../src/repl/cost-command.ts";

test("/cost with two models, one without a known price: per-model lines, and the unpriced one named, not guessed", () => {
  const meter = new UsageMeter();
  // Claude Opus 4.5: $5 in, $25 out.
  meter.add("claude-opus-4-5", { input: 200_000, output: 40_000, cacheRead: 0, cacheWrite: 0 });
  meter.add("my-proxy-model\u001b[31m", { input: 5, output: 6, cacheRead: 7, cacheWrite: 8 });
  expect(costText(meter).split("\n")).toEqual([
    "Cost: $2.00 (not counted: my-proxy-model, no price known)",
    "  tokens: 200,005 input · 40,006 output · 7 cache read · 8 cache write",
    "  claude-opus-4-5: $2.00 · 200,000 input · 40,000 output · 0 cache read · 0 cache write",
    "  my-proxy-model: no price known · 5 input · 6 output · 7 cache read · 8 cache write",
  ]);
});
