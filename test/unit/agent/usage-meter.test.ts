import { describe, expect, test } from "bun:test";
import { KNOWN_MODELS, modelInfo } from "../../../src/agent/models.ts";
import { UsageMeter } from "../../../src/agent/usage-meter.ts";
import type { Model } from "@anthropic-ai/sdk/resources/messages";

describe("models and the usage meter", () => {
  test("every known id is one the SDK lists, and a dated id finds its model", () => {
    const ids: Model[] = KNOWN_MODELS.map((info) => info.id as Model);
    expect(new Set(ids).size).toBe(ids.length);
    expect(modelInfo("claude-haiku-4-5-20251001")?.id).toBe("claude-haiku-4-5");
    expect(modelInfo("claude-sonnet-4-5-20250929")?.contextWindow).toBe(200_000);
    expect(modelInfo("claude-test")).toBeUndefined();
    expect(modelInfo("claude-sonnet-5-5-nonsense")).toBeUndefined();
  });

  test("thinking: adaptive from the 4.6 models on, a budget for the older ones", () => {
    const adaptive = KNOWN_MODELS.filter((info) => info.adaptiveThinking).map((info) => info.id);
    expect(KNOWN_MODELS.filter((info) => !info.adaptiveThinking).map((info) => info.id)).toEqual(["claude-haiku-4-5", "claude-opus-4-5", "claude-sonnet-4-5"]);
    expect(adaptive).toContain("claude-sonnet-5-5");
    expect(KNOWN_MODELS.every((info) => info.thinking)).toBe(true);
  });

  test("cost per model from the price table; an unknown model is counted but not priced", () => {
    const meter = new UsageMeter();
    const heard: string[] = [];
    meter.onAdd = (model, usage) => heard.push(`${model}:${usage.input}`);
    // Sonnet 4.5: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million.
    meter.add("claude-sonnet-4-5-20250929", { input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 400_000 });
    meter.add("claude-test", { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 });
    meter.add("claude-sonnet-4-5-20250929", { input: 0, output: 100_000, cacheRead: 0, cacheWrite: 0 });
    expect(heard).toEqual(["claude-sonnet-4-5-20250929:1000000", "claude-test:10", "claude-sonnet-4-5-20250929:0"]);
    const [sonnet, unknown] = meter.byModel();
    expect(sonnet!.usage).toEqual({ input: 1_000_000, output: 200_000, cacheRead: 2_000_000, cacheWrite: 400_000 });
    expect(sonnet!.dollars).toBeCloseTo(3 + 3 + 0.6 + 1.5, 10);
    expect(unknown).toEqual({ model: "claude-test", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 }, dollars: undefined });
    expect(meter.dollars().dollars).toBeCloseTo(8.1, 10);
    expect(meter.dollars().unpriced).toEqual(["claude-test"]);
    expect(meter.total()).toEqual({ input: 1_000_010, output: 200_005, cacheRead: 2_000_000, cacheWrite: 400_000 });
  });

  test("restore adds a resumed session's usage without telling onAdd", () => {
    const meter = new UsageMeter();
    let heard = 0;
    meter.onAdd = () => heard++;
    meter.restore([{ model: "claude-haiku-4-5", usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 } }]);
    meter.add("claude-haiku-4-5", { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 });
    expect(heard).toBe(1);
    expect(meter.total()).toEqual({ input: 2, output: 3, cacheRead: 4, cacheWrite: 5 });
  });

  test("restore sets the usage to the resumed session's: resuming twice in one run counts it once", () => {
    const meter = new UsageMeter();
    const saved = [
      { model: "claude-haiku-4-5", usage: { input: 10, output: 1, cacheRead: 0, cacheWrite: 0 } },
      { model: "claude-haiku-4-5", usage: { input: 5, output: 1, cacheRead: 0, cacheWrite: 0 } },
    ];
    meter.add("claude-sonnet-4-5", { input: 7, output: 7, cacheRead: 7, cacheWrite: 7 });
    meter.restore(saved);
    meter.restore(saved);
    expect(meter.byModel().map((entry) => [entry.model, entry.usage])).toEqual([["claude-haiku-4-5", { input: 15, output: 2, cacheRead: 0, cacheWrite: 0 }]]);
  });
});
