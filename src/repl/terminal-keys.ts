/** Bracketed paste (xterm): a terminal that was sent PASTE_ON wraps pasted text in these markers. */
export const PASTE_ON = "\u001b[?2004h";
export const PASTE_OFF = "\u001b[?2004l";
const PASTE_START = "\u001b[200~";
const PASTE_END = "\u001b[201~";

/** A paste larger than this is cut: it is text for a prompt, and the model's context is smaller still. */
export const MAX_PASTE_CHARS = 2_000_000;

/**
 * What the terminal sent, in order: typed text, one paste (verbatim, markers removed), the newline
 * key (Alt+Enter; Shift+Enter where the terminal reports it), or one key: a control character or
 * an escape sequence, as its raw bytes.
 */
export type KeyToken = { kind: "text"; text: string } | { kind: "paste"; text: string; cut: boolean } | { kind: "newline" } | { kind: "key"; sequence: string };

/**
 * Alt+Enter is ESC before the Enter byte; Shift+Enter is reported only under the kitty keyboard
 * protocol (`ESC[13;2u`) or xterm's modifyOtherKeys (`ESC[27;2;13~`): any modifier on Enter counts.
 */
const NEWLINE_KEY = /^\u001b(?:[\r\n]|\[13;\d+u|\[27;\d+;13~)/;
/** CSI (`ESC [` params, final byte), SS3 (`ESC O x`), or ESC with one character (Alt+key). */
const ESCAPE_SEQUENCE = /^\u001b(?:\[[0-?]*[ -/]*[@-~]|O.|[^[O])/s;
/** The start of a CSI whose end has not arrived yet. */
const PARTIAL_CSI = /^\u001b(?:\[[0-?]*[ -/]*)?$/;

/**
 * Splits what a terminal sends into KeyToken: stateful, since a paste (or an escape sequence) may
 * arrive in several chunks. Pure: no terminal, no timers, so every case is a unit test.
 */
export class KeyParser {
  private paste: string | undefined;
  private pasteCut = false;
  private rest = "";

  feed(chunk: string): KeyToken[] {
    const tokens: KeyToken[] = [];
    const data = this.rest + chunk;
    this.rest = "";
    let i = 0;
    let textStart = 0;
    const flushText = () => {
      if (i > textStart) tokens.push({ kind: "text", text: data.slice(textStart, i) });
    };
    while (i < data.length) {
      if (this.paste !== undefined) {
        const end = data.indexOf(PASTE_END, i);
        // Keep a tail that could be the start of the end marker split across chunks.
        const until = end === -1 ? Math.max(i, data.length - (PASTE_END.length - 1)) : end;
        this.addPaste(data.slice(i, until));
        if (end === -1) {
          this.rest = data.slice(until);
          return tokens;
        }
        tokens.push({ kind: "paste", text: this.paste, cut: this.pasteCut });
        this.paste = undefined;
        i = textStart = end + PASTE_END.length;
        continue;
      }
      const code = data.charCodeAt(i);
      if (code >= 0x20 && code !== 0x7f) {
        i++;
        continue;
      }
      flushText();
      const at = data.slice(i, i + 16);
      let sequence: string;
      if (code !== 0x1b) {
        sequence = data[i] as string;
        tokens.push({ kind: "key", sequence });
      } else if (at.startsWith(PASTE_START)) {
        this.paste = "";
        this.pasteCut = false;
        sequence = PASTE_START;
      } else if (NEWLINE_KEY.test(at)) {
        sequence = (NEWLINE_KEY.exec(at) as RegExpExecArray)[0];
        tokens.push({ kind: "newline" });
      } else if (i + 1 < data.length && PARTIAL_CSI.test(data.slice(i))) {
        // A chunk ending inside `ESC [`…: wait for the rest (a lone ESC at the end is the Esc key).
        this.rest = data.slice(i);
        return tokens;
      } else {
        sequence = ESCAPE_SEQUENCE.exec(at)?.[0] ?? "\u001b";
        tokens.push({ kind: "key", sequence });
      }
      i = textStart = i + sequence.length;
    }
    flushText();
    return tokens;
  }

  private addPaste(text: string): void {
    const room = MAX_PASTE_CHARS - (this.paste as string).length;
    if (text.length > room) this.pasteCut = true;
    this.paste += text.slice(0, Math.max(0, room));
  }
}
