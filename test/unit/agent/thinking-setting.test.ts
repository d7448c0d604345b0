import { expect, test } from "bun:test";
import { DEFAULT_MAX_TOKENS } from "../../../src/agent/agent-loop.ts";
import type { ModelInfo } from "../../../src/agent/models.ts";
import { DEFAULT_THINKING_BUDGET, resolveThinking, thinkingMisfit } from "../../../src/agent/thinking-setting.ts";

const prices = { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 };
const table: Record<string, ModelInfo> = {
  thinker: { id: "thinker", name: "Thinker", contextWindow: 200_000, maxOutputTokens: 32_000, thinking: true, prices },
  plain: { id: "plain", name: "Plain", contextWindow: 200_000, maxOutputTokens: 8_192, thinking: false, prices },
};
const lookup = (id: string) => table[id];

test("off unless --thinking or settings' thinking says so", () => {
  expect(resolveThinking({ flag: undefined, setting: undefined, model: "thinker", lookup })).toEqual({ ok: true, thinking: undefined, maxTokens: undefined });
  expect(resolveThinking({ flag: false, setting: true, model: "thinker", lookup })).toMatchObject({ ok: true, thinking: undefined });
});

test("--thinking or true: the default budget, and max_tokens above it within the model's limit", () => {
  const result = resolveThinking({ flag: true, setting: undefined, model: "thinker", lookup });
  expect(result).toEqual({ ok: true, thinking: { budgetTokens: DEFAULT_THINKING_BUDGET }, maxTokens: DEFAULT_THINKING_BUDGET + DEFAULT_MAX_TOKENS });
  const big = resolveThinking({ flag: undefined, setting: { budgetTokens: 30_000 }, model: "thinker", lookup });
  expect(big).toEqual({ ok: true, thinking: { budgetTokens: 30_000 }, maxTokens: 32_000 });
});

test("settings' budget is kept when --thinking turns it on; an unknown model gets the benefit of the doubt", () => {
  const result = resolveThinking({ flag: true, setting: { budgetTokens: 2_048 }, model: "someone-elses-model", lookup });
  expect(result).toEqual({ ok: true, thinking: { budgetTokens: 2_048 }, maxTokens: 2_048 + DEFAULT_MAX_TOKENS });
});

test("a known model without thinking is a clear error naming how to turn it off", () => {
  const result = resolveThinking({ flag: true, setting: undefined, model: "plain", lookup });
  expect(result).toEqual({ ok: false, error: 'plain does not support extended thinking: choose another model, or turn thinking off (--no-thinking, or "thinking": false in settings.json)' });
});

test("a budget the model's output limit cannot exceed is refused", () => {
  const result = resolveThinking({ flag: undefined, setting: { budgetTokens: 40_000 }, model: "thinker", lookup });
  expect(result.ok).toBe(false);
  expect(!result.ok && result.error).toContain("leaves no room for thinker's answer (it writes at most 32000 tokens)");
  expect(resolveThinking({ flag: undefined, setting: { budgetTokens: 100 }, model: "thinker", lookup })).toMatchObject({ ok: false });
});

test("switching to a model that cannot take the current choice is refused", () => {
  const choice = { thinking: { budgetTokens: 8_000 }, maxTokens: 24_000 };
  expect(thinkingMisfit("plain", choice, lookup)).toContain("does not support extended thinking");
  expect(thinkingMisfit("thinker", choice, lookup)).toBeUndefined();
  expect(thinkingMisfit("plain", { thinking: undefined, maxTokens: undefined }, lookup)).toBeUndefined();
});
