/** How deep a tool definition may nest: deeper than any real input schema, far from any stack limit. */
export const MAX_TOOL_DEPTH = 64;

/**
 * How deep a result may nest. Results carry real trees (DOM and syntax trees run to hundreds of
 * levels), so this is looser than for tool definitions, yet far below the ~10,000 levels where
 * `JSON.stringify` (the model request, `--raw`, structuredContent shown as text) overflows the stack.
 */
export const MAX_RESULT_DEPTH = 512;

/**
 * True when `value` nests objects and arrays more than `maxDepth` levels (a scalar is 0 deep, `{}`
 * is 1). `JSON.parse` is no risk, it parses any depth without recursion; what comes after it is.
 * It runs on every result, so it is a plain walk that allocates nothing (about 0.1 µs for a small
 * result), and it recurses at most `maxDepth` frames: it gives up at the first level too deep, so a
 * chain 60,000 levels deep costs 65 steps and never the stack it guards.
 */
export function exceedsDepth(value: unknown, maxDepth: number): boolean {
  if (maxDepth === Infinity) return false;
  return typeof value === "object" && value !== null && needsMoreLevels(value, maxDepth);
}

/** True when the container `node` needs more than `levels` levels. */
function needsMoreLevels(node: object, levels: number): boolean {
  if (levels === 0) return true;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (typeof child === "object" && child !== null && needsMoreLevels(child, levels - 1)) return true;
    }
    return false;
  }
  const record = node as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const child = record[keys[i] as string];
    if (typeof child === "object" && child !== null && needsMoreLevels(child, levels - 1)) return true;
  }
  return false;
}
