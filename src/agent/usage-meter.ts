import { modelInfo } from "./models.ts";
import { addUsage, emptyUsage, type TokenUsage } from "./usage.ts";

/**
 * The tokens a session used, per model, and what they cost. Every model request adds its usage
 * here (compaction requests too); /cost, print mode's JSON and the session file read it.
 */
export class UsageMeter {
  private readonly models = new Map<string, TokenUsage>();
  /** Hears every request's usage after it is added (the session file writes it). */
  onAdd: ((model: string, usage: TokenUsage) => void) | undefined;

  add(model: string, usage: TokenUsage): void {
    this.models.set(model, addUsage(this.models.get(model) ?? emptyUsage(), usage));
    this.onAdd?.(model, usage);
  }

  /**
   * The usage becomes a resumed session's (its saved requests, summed per model): what was counted
   * before goes, so a second /resume in one run does not count the first one's tokens again. Not
   * reported through onAdd (it is saved already).
   */
  restore(entries: Array<{ model: string; usage: TokenUsage }>): void {
    this.models.clear();
    for (const { model, usage } of entries) this.models.set(model, addUsage(this.models.get(model) ?? emptyUsage(), usage));
  }

  total(): TokenUsage {
    let total = emptyUsage();
    for (const usage of this.models.values()) total = addUsage(total, usage);
    return total;
  }

  /** Per model, in the order first used; `dollars` is undefined for a model without a known price. */
  byModel(): Array<{ model: string; usage: TokenUsage; dollars: number | undefined }> {
    return [...this.models].map(([model, usage]) => ({ model, usage: { ...usage }, dollars: costOf(model, usage) }));
  }

  /** The sum of the priced models, and the models left out of it for want of a price. */
  dollars(): { dollars: number; unpriced: string[] } {
    let dollars = 0;
    const unpriced: string[] = [];
    for (const entry of this.byModel()) {
      if (entry.dollars === undefined) unpriced.push(entry.model);
      else dollars += entry.dollars;
    }
    return { dollars, unpriced };
  }
}

/** What these tokens cost on this model, in USD; undefined when its price is not known. */
export function costOf(model: string, usage: TokenUsage): number | undefined {
  const prices = modelInfo(model)?.prices;
  if (!prices) return undefined;
  return (usage.input * prices.input + usage.output * prices.output + usage.cacheRead * prices.cacheRead + usage.cacheWrite * prices.cacheWrite) / 1_000_000;
}
