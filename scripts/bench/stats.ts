/** Small statistics and formatting for the benchmark tables. */

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function min(values: number[]): number {
  return values.length === 0 ? Number.NaN : Math.min(...values);
}

export function max(values: number[]): number {
  return values.length === 0 ? Number.NaN : Math.max(...values);
}

/** `12,345` for counts and rates; `1.23` style for small numbers. */
export function formatNumber(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return "n/a";
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "n/a";
  return ms >= 100 ? `${formatNumber(ms)} ms` : `${formatNumber(ms, 1)} ms`;
}

export function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : "n/a";
}

export function formatMiB(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : "n/a";
}

/** ✅ or ❌ with the target spelled out, so a miss is as visible as a pass. */
export function verdict(ok: boolean): string {
  return ok ? "✅ met" : "❌ missed";
}
