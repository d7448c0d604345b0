/**
 * Growth checks for scale tests: how much more CPU time eight times the work takes. Linear work
 * gives about 8, quadratic work up to 64; the CPU time of this process, not the wall clock, which
 * on a loaded machine also counts the time other processes had the cores.
 */

/** This process's CPU time so far, in milliseconds. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The fastest of three runs of `run` (which returns the CPU milliseconds of the part it measures):
 * the machine is shared, and a slow outlier says nothing about the code.
 */
export async function fastestOfThree(run: () => Promise<number>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    // A collection left over from the last run would be billed to this one.
    Bun.gc(true);
    best = Math.min(best, await run());
  }
  return best;
}

/**
 * The ratio of the fastest times at 8N and at N, after a warm-up run of N. Measured again, up to
 * three times, while it is at or over `bound`: noise rarely strikes three times in a row,
 * quadratic work always does.
 */
export async function growthRatio(atN: () => Promise<number>, atEightN: () => Promise<number>, bound: number): Promise<number> {
  await atN(); // warms the code paths
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best >= bound; attempt++) best = Math.min(best, (await fastestOfThree(atEightN)) / (await fastestOfThree(atN)));
  return best;
}
