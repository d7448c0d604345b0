/**
 * `text` cut to at most `max` UTF-16 units, the last of them an ellipsis when it was cut. Never
 * through a surrogate pair: half of one is written as U+FFFD.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 2)) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}
