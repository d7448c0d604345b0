import type { UsageMeter } from "../agent/usage-meter.ts";
import type { TokenUsage } from "../agent/usage.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

/**
 * `/cost`: the session's tokens (input, output, cache reads and writes) and their price in dollars,
 * per model when more than one was used. A model without a known price is named, not guessed.
 */
export function costText(meter: UsageMeter | undefined): string {
  const models = meter?.byModel() ?? [];
  if (models.length === 0) return "No model requests yet: nothing has cost anything.";
  const { dollars, unpriced } = meter!.dollars();
  const lines = [`Cost: ${formatDollars(dollars)}${unpriced.length ? ` (not counted: ${unpriced.map(shown).join(", ")}, no price known)` : ""}`];
  lines.push(`  tokens: ${tokenCounts(meter!.total())}`);
  if (models.length > 1) {
    for (const { model, usage, dollars: cost } of models) lines.push(`  ${shown(model)}: ${cost === undefined ? "no price known" : formatDollars(cost)} · ${tokenCounts(usage)}`);
  }
  return lines.join("\n");
}

/** `1,000 input · 20 output · 300 cache read · 4 cache write` */
export function tokenCounts(usage: TokenUsage): string {
  const n = (count: number) => count.toLocaleString("en-US");
  return `${n(usage.input)} input · ${n(usage.output)} output · ${n(usage.cacheRead)} cache read · ${n(usage.cacheWrite)} cache write`;
}

/** Cents for sums worth them; small sums keep four decimals, so a short session does not read $0.00. */
export function formatDollars(dollars: number): string {
  return dollars >= 1 ? `$${dollars.toFixed(2)}` : `$${dollars.toFixed(4)}`;
}

function shown(model: string): string {
  return sanitizeForTerminal(model);
}
