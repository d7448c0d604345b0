/** Pastes remembered for expansion: enough for a session's Up-arrow recalls, bounded in memory. */
const KEPT_PASTES = 50;

/**
 * Pasted text stands in the input line as a short label while the line is edited, and is put back
 * verbatim when the line is sent. One plain line goes in as it is; text with a line break, a tab or
 * any other control character (which the line editor would take for keys) becomes `[pasted 42 lines]`.
 * The label is what the line shows; expand() gives what is sent.
 */
export class PastedText {
  /** Label -> text, oldest first. */
  private readonly pastes = new Map<string, string>();

  /** What to put in the input line for a paste. */
  label(text: string, cut = false): string {
    const normalized = text.replace(/\r\n?/g, "\n");
    if (!cut && !/[\u0000-\u001f\u007f]/.test(normalized)) return normalized;
    const lines = normalized.replace(/\n$/, "").split("\n").length;
    const base = `[pasted ${lines} line${lines === 1 ? "" : "s"}${cut ? ", cut" : ""}`;
    let label = `${base}]`;
    for (let n = 2; this.pastes.has(label) && this.pastes.get(label) !== normalized; n++) label = `${base} #${n}]`;
    this.pastes.delete(label);
    this.pastes.set(label, normalized);
    if (this.pastes.size > KEPT_PASTES) this.pastes.delete(this.pastes.keys().next().value as string);
    return label;
  }

  /** The line with each paste label replaced by its text (one pass: a paste's own text is left as it is). */
  expand(line: string): string {
    if (!line.includes("[pasted ") || this.pastes.size === 0) return line;
    const labels = [...this.pastes.keys()].map((label) => label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    return line.replace(new RegExp(labels.join("|"), "g"), (label) => this.pastes.get(label) ?? label);
  }
}
