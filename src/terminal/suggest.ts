/** Names close to a mistyped one, nearest first: "did you mean …". */
export function nearestNames(input: string, candidates: string[], max = 3): string[] {
  const lowered = input.toLowerCase();
  return candidates
    .map((name) => ({ name, distance: editDistance(lowered, name.toLowerCase()) }))
    .filter(({ name, distance }) => distance <= Math.max(2, Math.floor(name.length / 3)) || name.toLowerCase().includes(lowered))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, max)
    .map(({ name }) => name);
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Beyond this many, the names a server offers are not all listed: a hostile one may offer thousands. */
const MAX_LISTED = 20;
/** Beyond this many, no "did you mean": comparing with each name costs more than it helps. */
const MAX_COMPARED = 1000;

/** "unknown server 'ecko'. Did you mean: echo? Available servers: echo, fs." */
export function unknownNameMessage(kind: string, input: string, candidates: string[]): string {
  const near = candidates.length > MAX_COMPARED ? [] : nearestNames(input, candidates);
  const hint = near.length ? ` Did you mean: ${near.join(", ")}?` : "";
  const more = candidates.length > MAX_LISTED ? ` and ${candidates.length - MAX_LISTED} more` : "";
  const all = candidates.length ? ` Available ${kind}s: ${candidates.slice(0, MAX_LISTED).join(", ")}${more}.` : ` There are no ${kind}s.`;
  return `unknown ${kind} '${input}'.${hint}${all}`;
}
