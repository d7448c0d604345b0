import { median } from "./stats.ts";

/** One measured run of one contender: its wall time, and anything else it measured. */
export interface Sample {
  ms: number;
  [measure: string]: number;
}

export interface Contender {
  name: string;
  run(): Promise<Sample>;
}

export interface Interleaved {
  /** Samples per contender, in round order: samples[name][round]. */
  samples: Map<string, Sample[]>;
  rounds: number;
}

/**
 * Runs every contender once per round, rotating who goes first, so drift on a shared machine (a
 * neighbour's build, thermal throttling) lands on all of them alike. The warm-up rounds are run
 * and thrown away: they pay for JIT and page-cache warm-up.
 */
export async function interleave(
  contenders: Contender[],
  options: { rounds: number; warmupRounds?: number; onSample?: (name: string, sample: Sample, round: number) => void },
): Promise<Interleaved> {
  const samples = new Map<string, Sample[]>(contenders.map((c) => [c.name, []]));
  const warmup = options.warmupRounds ?? 1;
  for (let round = -warmup; round < options.rounds; round++) {
    const shift = ((round % contenders.length) + contenders.length) % contenders.length;
    const order = [...contenders.slice(shift), ...contenders.slice(0, shift)];
    for (const contender of order) {
      Bun.gc(true);
      const sample = await contender.run();
      if (round < 0) continue;
      samples.get(contender.name)!.push(sample);
      options.onSample?.(contender.name, sample, round);
    }
  }
  return { samples, rounds: options.rounds };
}

/** The median of one measure of one contender. */
export function medianOf(result: Interleaved, name: string, measure = "ms"): number {
  return median((result.samples.get(name) ?? []).map((s) => s[measure]!));
}

/**
 * The median over rounds of `a`'s measure divided by `b`'s in the same round: paired, so a noisy
 * round moves both sides of its ratio together.
 */
export function pairedRatio(result: Interleaved, a: string, b: string, measure = "ms"): number {
  const as = result.samples.get(a) ?? [];
  const bs = result.samples.get(b) ?? [];
  const ratios = as.map((sample, i) => sample[measure]! / bs[i]![measure]!);
  return median(ratios);
}
