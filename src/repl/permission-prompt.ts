import type { PermissionGate } from "../agent/permission.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { permissionView } from "./permission-view.ts";
import { plainStyle, type Style } from "./tool-call-line.ts";

/** Up to this many lines, the whole call is shown at once; past it, a page at a time. */
export const MAX_UNPAGED_LINES = 200;

/** Asks one question and resolves the answer; null when input ended or the turn was cancelled. */
export type Ask = (question: string, signal?: AbortSignal) => Promise<string | null>;

export interface PermissionPromptOptions {
  /** Called before anything is shown (ends a line of streamed text). */
  before?: () => void;
  /** Writes one line. */
  print?: (line: string) => void;
  /** Shows text in the user's $PAGER and resolves true once it is closed; absent without a terminal. */
  page?: (text: string) => Promise<boolean>;
  /** Terminal width and height. */
  columns?: number;
  rows?: number;
  style?: Style;
}

/**
 * The REPL's permission gate. It shows the whole call (see permissionView), then asks
 * `Allow <tool>? [y]es / [n]o / [a]lways for this tool`. A call longer than MAX_UNPAGED_LINES is shown
 * a page at a time and `y` is refused until every page was shown, or the user read it in $PAGER
 * (`v`). "always" holds for the tool until the REPL exits. No answer (Ctrl-D, Ctrl-C) is a no.
 */
export function interactivePermissions(ask: Ask, options: PermissionPromptOptions = {}): PermissionGate {
  const alwaysAllowed = new Set<string>();
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const style = options.style ?? plainStyle;
  const width = Math.max(options.columns ?? 120, 40);
  const pageLines = Math.max((options.rows ?? 40) - 2, 10);
  return async ({ tool, input, preview = { kind: "arguments", input }, signal }) => {
    if (alwaysAllowed.has(tool.name)) return "allow";
    options.before?.();
    const lines = permissionView(tool.name, preview, width, style);
    if (lines.length <= MAX_UNPAGED_LINES) {
      for (const line of lines) print(line);
    } else {
      const seen = await pageThrough(lines, { ask, print, page: options.page, pageLines, signal });
      if (!seen) return "deny";
    }
    const question = `Allow ${sanitizeForTerminal(tool.name)}? [y]es / [n]o / [a]lways for this tool `;
    for (;;) {
      const answer = await ask(question, signal);
      if (answer === null) return "deny";
      switch (answer.trim().toLowerCase()) {
        case "y":
        case "yes":
          return "allow";
        case "a":
        case "always":
          alwaysAllowed.add(tool.name);
          return "allow";
        case "n":
        case "no":
          return "deny";
        // Anything else, an empty line included, asks again: a stray Enter should not decide.
      }
    }
  };
}

/**
 * Shows `lines` a page at a time. Resolves true once all of it was seen (every page, or the whole
 * in $PAGER), false when the user said no or input ended: a yes is only asked for after that.
 */
async function pageThrough(
  lines: string[],
  io: { ask: Ask; print: (line: string) => void; page?: (text: string) => Promise<boolean>; pageLines: number; signal?: AbortSignal },
): Promise<boolean> {
  const pager = io.page ? " / [v]iew all in $PAGER" : "";
  let shown = 0;
  const more = () => {
    for (const line of lines.slice(shown, shown + io.pageLines)) io.print(line);
    shown = Math.min(shown + io.pageLines, lines.length);
  };
  more();
  while (shown < lines.length) {
    const answer = await io.ask(`-- ${shown} of ${lines.length} lines; [Enter] more${pager} / [n]o `, io.signal);
    if (answer === null) return false;
    switch (answer.trim().toLowerCase()) {
      case "":
        more();
        break;
      case "n":
      case "no":
        return false;
      case "v":
        if (io.page && (await io.page(lines.map((line) => Bun.stripANSI(line)).join("\n")))) return true;
        io.print("(the pager could not be started; Enter shows the next page)");
        break;
      default:
        io.print(`(${lines.length - shown} more lines to see before you can allow it: Enter shows the next page${io.page ? ", v all of it in $PAGER" : ""})`);
    }
  }
  return true;
}
