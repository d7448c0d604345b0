/**
 * A unified diff (`diff -u`) of two texts, for showing a file change before it is approved.
 * Lines in common at both ends are set aside first, so an edit in a big file costs little; the
 * middle is diffed with Myers' algorithm, whose cost grows with the number of changed lines.
 * Past MAX_EDITS (or MAX_WORK steps) the middle is shown as all removed, then all added: still a
 * correct diff, never a quadratic one.
 */

const MAX_EDITS = 1_000;
const MAX_WORK = 5_000_000;
/** Marks a last line without a newline, so it differs from the same text with one, as in diff -u. */
const NO_EOL = "\u0000no-eol";

type Op = { type: " " | "-" | "+"; line: string };

export interface DiffNames {
  oldName: string;
  newName: string;
  context?: number;
}

/** The diff text, "" when the texts are equal. */
export function unifiedDiff(oldText: string, newText: string, { oldName, newName, context = 3 }: DiffNames): string {
  if (oldText === newText) return "";
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const aMiddle = a.slice(prefix, a.length - suffix);
  const bMiddle = b.slice(prefix, b.length - suffix);
  const middle = editScript(aMiddle, bMiddle) ?? [
    ...aMiddle.map((line): Op => ({ type: "-", line })),
    ...bMiddle.map((line): Op => ({ type: "+", line })),
  ];
  const ops: Op[] = [
    ...a.slice(0, prefix).map((line): Op => ({ type: " ", line })),
    ...middle,
    ...a.slice(a.length - suffix).map((line): Op => ({ type: " ", line })),
  ];
  return [`--- ${oldName}`, `+++ ${newName}`, ...hunks(ops, context)].join("\n");
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  else lines[lines.length - 1] += NO_EOL;
  return lines;
}

/** Myers' O((N+M)·D) shortest edit script; undefined when it would cost more than the limits allow. */
function editScript(a: string[], b: string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  // trace[d][k + d] is the furthest x reached on diagonal k with d edits.
  const trace: Int32Array[] = [];
  const at = (d: number, k: number) => (trace[d] as Int32Array)[k + d] as number;
  let work = 0;
  let found = false;
  for (let d = 0; d <= Math.min(MAX_EDITS, n + m) && !found; d++) {
    const v = new Int32Array(2 * d + 1);
    for (let k = -d; k <= d; k += 2) {
      let x = d === 0 ? 0 : k === -d || (k !== d && at(d - 1, k - 1) < at(d - 1, k + 1)) ? at(d - 1, k + 1) : at(d - 1, k - 1) + 1;
      let y = x - k;
      const snakeStart = x;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[k + d] = x;
      work += 1 + x - snakeStart;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
    trace.push(v);
    work += d;
    if (work > MAX_WORK) return undefined;
  }
  if (!found) return undefined;

  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const k = x - y;
    const down = k === -d || (k !== d && at(d - 1, k - 1) < at(d - 1, k + 1));
    const startX = down ? at(d - 1, k + 1) : at(d - 1, k - 1) + 1;
    while (x > startX) ops.push({ type: " ", line: a[--x] as string }), y--;
    if (down) ops.push({ type: "+", line: b[--y] as string });
    else ops.push({ type: "-", line: a[--x] as string });
  }
  while (x > 0) ops.push({ type: " ", line: a[--x] as string }), y--;
  return ops.reverse();
}

/** Groups the changes with `context` lines around them into @@ hunks. */
function hunks(ops: Op[], context: number): string[] {
  const oldBefore = new Int32Array(ops.length + 1);
  const newBefore = new Int32Array(ops.length + 1);
  ops.forEach((op, i) => {
    oldBefore[i + 1] = (oldBefore[i] as number) + (op.type === "+" ? 0 : 1);
    newBefore[i + 1] = (newBefore[i] as number) + (op.type === "-" ? 0 : 1);
  });
  const out: string[] = [];
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && (ops[i] as Op).type === " ") i++;
    if (i === ops.length) break;
    const start = Math.max(0, i - context);
    // Extend while the next change is close enough that the contexts would touch.
    let end = i;
    for (let j = i; j < ops.length && j - end <= 2 * context; j++) if ((ops[j] as Op).type !== " ") end = j + 1;
    const stop = Math.min(ops.length, end + context);
    out.push(`@@ -${range(oldBefore[start] as number, (oldBefore[stop] as number) - (oldBefore[start] as number))} +${range(newBefore[start] as number, (newBefore[stop] as number) - (newBefore[start] as number))} @@`);
    for (const op of ops.slice(start, stop)) {
      const noEol = op.line.endsWith(NO_EOL);
      out.push(`${op.type}${noEol ? op.line.slice(0, -NO_EOL.length) : op.line}`);
      if (noEol) out.push("\\ No newline at end of file");
    }
    i = stop;
  }
  return out;
}

/** `start,count` as diff -u writes it: 1-based, the count left out when 1, the line before when 0. */
function range(linesBefore: number, count: number): string {
  if (count === 0) return `${linesBefore},0`;
  return count === 1 ? `${linesBefore + 1}` : `${linesBefore + 1},${count}`;
}
