import type { Usage as ApiUsage } from "@anthropic-ai/sdk/resources/messages";

/**
 * Tokens, as the Messages API counts them: `input` is the uncached part of the prompt, `cacheRead`
 * and `cacheWrite` the parts read from and written to the prompt cache, `output` the answer.
 */
export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export function emptyUsage(): TokenUsage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite };
}

/** One response's usage as the SDK reports it; absent or odd counts are 0. */
export function usageOf(usage: Partial<ApiUsage> | undefined): TokenUsage {
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0);
  return {
    input: count(usage?.input_tokens),
    output: count(usage?.output_tokens),
    cacheRead: count(usage?.cache_read_input_tokens),
    cacheWrite: count(usage?.cache_creation_input_tokens),
  };
}

/** The whole prompt of a request, cached or not: what fills the context window. */
export function promptTokens(usage: TokenUsage): number {
  return usage.input + usage.cacheRead + usage.cacheWrite;
}
