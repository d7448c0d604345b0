import { DEFAULT_MAX_TOKENS } from "./agent-loop.ts";
import { modelInfo, type ModelInfo } from "./models.ts";
import { MIN_THINKING_BUDGET } from "../system/thinking-budget.ts";

/** The thinking budget when `--thinking` or `"thinking": true` names none. */
export const DEFAULT_THINKING_BUDGET = 8_000;

export interface ThinkingChoice {
  /** For AgentLoopOptions.thinking; undefined: thinking is off. */
  thinking: { budgetTokens: number } | undefined;
  /** For AgentLoopOptions.maxTokens: above the budget, with room for the answer, within the model's output limit. */
  maxTokens: number | undefined;
}

export type ThinkingResult = ({ ok: true } & ThinkingChoice) | { ok: false; error: string };

/**
 * Thinking from `--thinking` / `--no-thinking` (wins when given) or settings' `thinking`, checked
 * against the model: a model cat-code knows to lack thinking is refused rather than left to the
 * API's 400, and max_tokens is set above the budget (the API refuses a budget that does not leave
 * room: max_tokens must be greater than budget_tokens).
 */
export function resolveThinking(options: {
  flag: boolean | undefined;
  setting: boolean | { budgetTokens: number } | undefined;
  model: string;
  lookup?: (id: string) => ModelInfo | undefined;
}): ThinkingResult {
  const wanted = options.flag ?? options.setting ?? false;
  if (wanted === false) return { ok: true, thinking: undefined, maxTokens: undefined };
  const budget = typeof options.setting === "object" ? options.setting.budgetTokens : DEFAULT_THINKING_BUDGET;
  if (!Number.isInteger(budget) || budget < MIN_THINKING_BUDGET) {
    return { ok: false, error: `the thinking budget must be a whole number of at least ${MIN_THINKING_BUDGET} tokens, got ${budget}: change "thinking" in settings.json` };
  }
  const limit = (options.lookup ?? modelInfo)(options.model)?.maxOutputTokens ?? Infinity;
  const choice = { thinking: { budgetTokens: budget }, maxTokens: Math.min(budget + DEFAULT_MAX_TOKENS, limit) };
  const error = thinkingMisfit(options.model, choice, options.lookup);
  return error ? { ok: false, error } : { ok: true, ...choice };
}

/** Why this model cannot take this thinking choice (an unknown model is given the benefit of the doubt). */
export function thinkingMisfit(model: string, choice: ThinkingChoice, lookup: (id: string) => ModelInfo | undefined = modelInfo): string | undefined {
  if (!choice.thinking) return undefined;
  const info = lookup(model);
  if (!info) return undefined;
  if (!info.thinking) return `${model} does not support extended thinking: choose another model, or turn thinking off (--no-thinking, or "thinking": false in settings.json)`;
  if (choice.thinking.budgetTokens >= info.maxOutputTokens || (choice.maxTokens ?? 0) > info.maxOutputTokens) {
    return `a thinking budget of ${choice.thinking.budgetTokens} tokens leaves no room for ${model}'s answer (it writes at most ${info.maxOutputTokens} tokens): lower "thinking": {"budgetTokens": …} in settings.json`;
  }
  return undefined;
}
