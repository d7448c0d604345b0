/**
 * What cat-code knows about each model: its context window (for auto-compaction), its output limit,
 * whether it thinks, and its prices (for /cost). The only place prices live.
 *
 * Ids are those the installed SDK's `Model` type lists (claude-mythos-preview is left out: no price
 * for it is published). Sources, read 2026-12-01:
 * - prices: https://platform.claude.com/docs/en/about-claude/pricing ("Model pricing": base input,
 *   5-minute cache writes, cache hits, output; USD per million tokens) and each model's overview
 *   page (https://platform.claude.com/docs/en/models/<model>/overview, "Pricing") for the models
 *   newer than that table.
 * - context windows, output limits, thinking: the same overview pages ("Capabilities").
 * Cache writes are priced at the 5-minute rate: cat-code asks for the default (5-minute) cache.
 * Claude Haiku 5.5 is priced by prompt length; this is its band for prompts up to 100K tokens.
 */
export interface ModelInfo {
  id: string;
  name: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** The model can think (extended or adaptive thinking). */
  thinking: boolean;
  /**
   * Its thinking is adaptive: it takes `thinking: {type: "adaptive"}` and refuses (or deprecates) a
   * budget (deprecated on the 4.6 models, refused from Claude Sonnet 5 on). A budget is sent to the
   * older models and to unknown ones.
   */
  adaptiveThinking?: boolean;
  /** USD per million tokens. */
  prices: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

const M = 1_000_000;
const K = 1_000;

function model(id: string, name: string, contextWindow: number, maxOutputTokens: number, adaptive: boolean, prices: ModelInfo["prices"]): ModelInfo {
  return { id, name, contextWindow, maxOutputTokens, thinking: true, ...(adaptive ? { adaptiveThinking: true } : {}), prices };
}

const FABLE_5_2 = { input: 8, output: 40, cacheRead: 0.2, cacheWrite: 10 };
const FABLE_5_1 = { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 };
const FABLE_5 = { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 };
const OPUS_5_5 = { input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 };
const OPUS_4_5_TO_5 = { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 };
const SONNET_5 = { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 };
const SONNET_4 = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const HAIKU_5_5 = { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 };
const HAIKU_4_5 = { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 };

/** Newest first. */
export const KNOWN_MODELS: readonly ModelInfo[] = [
  model("claude-fable-5-2", "Claude Fable 5.2", M, 128 * K, true, FABLE_5_2),
  model("claude-mythos-5-2", "Claude Mythos 5.2", M, 128 * K, true, FABLE_5_2),
  model("claude-haiku-5-5", "Claude Haiku 5.5", M, 128 * K, true, HAIKU_5_5),
  model("claude-sonnet-5-5", "Claude Sonnet 5.5", M, 128 * K, true, SONNET_5),
  model("claude-opus-5-5", "Claude Opus 5.5", M, 128 * K, true, OPUS_5_5),
  model("claude-fable-5-1", "Claude Fable 5.1", M, 128 * K, true, FABLE_5_1),
  model("claude-mythos-5-1", "Claude Mythos 5.1", M, 128 * K, true, FABLE_5_1),
  model("claude-sonnet-5", "Claude Sonnet 5", M, 128 * K, true, SONNET_5),
  model("claude-fable-5", "Claude Fable 5", M, 128 * K, true, FABLE_5),
  model("claude-mythos-5", "Claude Mythos 5", M, 128 * K, true, FABLE_5),
  model("claude-opus-5", "Claude Opus 5", M, 128 * K, true, OPUS_4_5_TO_5),
  model("claude-opus-4-8", "Claude Opus 4.8", M, 128 * K, true, OPUS_4_5_TO_5),
  model("claude-opus-4-7", "Claude Opus 4.7", M, 128 * K, true, OPUS_4_5_TO_5),
  model("claude-opus-4-6", "Claude Opus 4.6", 200 * K, 128 * K, true, OPUS_4_5_TO_5),
  model("claude-sonnet-4-6", "Claude Sonnet 4.6", 200 * K, 64 * K, true, SONNET_4),
  model("claude-haiku-4-5", "Claude Haiku 4.5", 200 * K, 64 * K, false, HAIKU_4_5),
  model("claude-opus-4-5", "Claude Opus 4.5", 200 * K, 64 * K, false, OPUS_4_5_TO_5),
  model("claude-sonnet-4-5", "Claude Sonnet 4.5", 200 * K, 64 * K, false, SONNET_4),
];

/** A dated id (`claude-haiku-4-5-20251001`) is its model's snapshot: the same limits and prices. */
const DATED = /^(.*)-\d{8}$/;

/** The model's facts, for its id or a dated id of it; undefined for a model cat-code does not know. */
export function modelInfo(id: string): ModelInfo | undefined {
  const exact = KNOWN_MODELS.find((info) => info.id === id);
  if (exact) return exact;
  const base = DATED.exec(id)?.[1];
  return base === undefined ? undefined : KNOWN_MODELS.find((info) => info.id === base);
}

/** The window assumed for a model the table does not know. */
export const ASSUMED_CONTEXT_WINDOW = 200_000;

/** The model's context window in tokens: the table's, else `fallback`, else 200,000. */
export function contextWindowOf(id: string, fallback?: number): number {
  return modelInfo(id)?.contextWindow ?? fallback ?? ASSUMED_CONTEXT_WINDOW;
}
