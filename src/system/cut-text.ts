/**
 * `text` cut to at most `max` UTF-16 units, ending in `…` when cut: for text from outside (a server's
 * message) that must stay bounded. Never cuts through a surrogate pair, whose half would show as U+FFFD.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
