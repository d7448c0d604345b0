/**
 * A moment as the user's own clock shows it, `HH:MM` in local time: when a token expires is said so
 * ("expires at 14:05"), near enough for a person planning the next sign-in.
 */
export function clockTime(epochMs: number): string {
  const date = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
