import { costOf, type UsageMeter } from "../agent/usage-meter.ts";
import { addUsage, emptyUsage, type TokenUsage } from "../agent/usage.ts";

type ByModel = ReturnType<UsageMeter["byModel"]>;

/**
 * What one run used and cost: the meter now, less what it held before (a resumed session's
 * earlier requests are in it too). The cost is null when a model used has no known price.
 */
export function usageSince(before: ByModel, meter: UsageMeter): { usage: TokenUsage; costUsd: number | null } {
  let usage = emptyUsage();
  let costUsd: number | null = 0;
  for (const entry of meter.byModel()) {
    const earlier = before.find((b) => b.model === entry.model)?.usage ?? emptyUsage();
    const spent: TokenUsage = {
      input: entry.usage.input - earlier.input,
      output: entry.usage.output - earlier.output,
      cacheRead: entry.usage.cacheRead - earlier.cacheRead,
      cacheWrite: entry.usage.cacheWrite - earlier.cacheWrite,
    };
    if (spent.input + spent.output + spent.cacheRead + spent.cacheWrite === 0) continue;
    usage = addUsage(usage, spent);
    const cost = costOf(entry.model, spent);
    costUsd = cost === undefined || costUsd === null ? null : costUsd + cost;
  }
  return { usage, costUsd };
}
