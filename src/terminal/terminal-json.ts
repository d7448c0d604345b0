import { BIDI_CONTROLS } from "./terminal-text.ts";

/**
 * What `JSON.stringify` leaves raw that a terminal acts on or that hides what text says: DEL, the
 * C1 controls (an 8-bit CSI is an escape sequence to some terminals), the bidi controls (Trojan
 * Source), and U+2028/U+2029 (a line break to some viewers, none to others). C0 controls are
 * escaped by JSON.stringify already.
 */
const UNSAFE_IN_JSON = new RegExp(`[\\u007f-\\u009f${BIDI_CONTROLS}\\u2028\\u2029]`, "g");

/**
 * `value` as JSON for stdout (`mcp list --json`, `-p --output-format json` and `stream-json`),
 * with the characters above written as `\uXXXX` escapes. Always, not only at a terminal: outside
 * JSON's strings the text is plain ASCII, so each such character is inside a string, where the
 * escape parses back to the very same character. A script reads the same document, a terminal
 * (or `cat` of a saved file, or a log viewer) sees six harmless characters.
 */
export function jsonForTerminal(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
