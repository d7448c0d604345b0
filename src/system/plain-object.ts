/**
 * A JSON object: not null, not an array. What a parsed config entry, a tool's input or a server's
 * answer must be before its fields are read.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
