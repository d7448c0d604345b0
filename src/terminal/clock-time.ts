/**
 * A moment as the user's own clock shows it, in local time: `HH:MM` when it falls on today's date,
 * else `YYYY-MM-DD HH:MM` (a token that lasts a week must not read as expiring this afternoon).
 * Near enough for a person planning the next sign-in. `now` for tests.
 */
export function clockTime(epochMs: number, now = Date.now()): string {
  const date = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, "0");
  const day = (at: Date) => `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return day(date) === day(new Date(now)) ? time : `${day(date)} ${time}`;
}
