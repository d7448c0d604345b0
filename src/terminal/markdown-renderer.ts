import type { Token } from "marked";
import { wrapToWidth, type TextFormat } from "./answer-stream.ts";
import { CODE_THEME, MARKDOWN_STYLES, underline } from "./markdown-styles.ts";
import { sanitizeForTerminal } from "./terminal-text.ts";

/**
 * What `marked` gives us, loaded on first use: with marked-terminal and highlight.js it takes ~200 ms
 * from source and ~60 ms in the compiled binary, which the prompt must not wait for.
 */
interface Loaded {
  lex(source: string): Token[];
  render(block: string): string;
}

let loading: Promise<Loaded> | undefined;

/**
 * Starts loading the Markdown renderer (marked, marked-terminal, cli-highlight) in the background
 * and resolves when it is ready. The REPL calls it once its prompt is up, so the prompt never waits
 * for it, and awaits it before a turn, by which time it has long been loaded.
 */
export function loadMarkdown(): Promise<void> {
  loading ??= load();
  return loading.then(() => undefined);
}

/**
 * The model's answer as Markdown for a terminal, a finished block at a time (see AnswerStream):
 * headings, bold, lists, tables, code blocks with syntax highlighting. Resolves once the renderer
 * is loaded (normally long since, by `loadMarkdown`); if it cannot be loaded, `fallback` (plain lines).
 *
 * The model's text is hostile. Escape sequences and control characters are taken out before
 * marked sees it (character references to them too: `&#27;` could be decoded into an ESC), and
 * after rendering only SGR (colour and weight) sequences are let through: whatever else
 * marked-terminal might emit, an OSC 8 hyperlink included, does not reach the terminal. Links are
 * shown as `text (url)`, so a link cannot look like another address than the one it opens.
 */
export async function markdownFormat(width: () => number, fallback: TextFormat): Promise<TextFormat> {
  const loaded = await (loading ??= load()).catch(() => undefined);
  if (!loaded) return fallback;
  /**
   * The lines last lexed when they were one open fenced code block, nothing finished: only a closing
   * fence can end it, so while the lines after them have none they need not be lexed again.
   */
  let openFence: string | undefined;
  return {
    finishedLength(pending, atEnd) {
      if (atEnd) return pending.length;
      // Only whole lines decide a block's kind (`2` may yet become `2. item` of the list above).
      const lines = pending.slice(0, pending.lastIndexOf("\n") + 1);
      if (openFence !== undefined && lines.startsWith(openFence) && !CLOSING_FENCE.test(lines.slice(openFence.length))) {
        openFence = lines;
        return 0;
      }
      const tokens = loaded.lex(lines);
      // The last block may still grow (a paragraph, a list, an open code fence); the ones before it are done.
      let last = tokens.length - 1;
      while (last >= 0 && tokens[last]?.type === "space") last--;
      const only = last === 0 ? tokens[0] : undefined;
      // A fence whose last line could close it may be closed: lexed again next time.
      openFence = only?.type === "code" && OPENING_FENCE.test(only.raw) && !CLOSING_FENCE.test(lastLine(only.raw)) ? lines : undefined;
      return tokens.slice(0, Math.max(0, last)).reduce((sum, token) => sum + token.raw.length, 0);
    },
    format(finished) {
      const blocks = loaded.lex(safeSource(finished));
      return blocks
        .map((token) => {
          const rendered = onlySgr(loaded.render(token.raw));
          if (token.type === "space") return rendered;
          if (token.type !== "table") return wrapToWidth(rendered, width());
          // A table is as wide as its cells need; wrapped by the terminal its frame would fall apart,
          // so one wider than the window is shown as its Markdown source, wrapped.
          const fits = rendered.split("\n").every((line) => Bun.stringWidth(line) <= width());
          return fits ? rendered : `${wrapToWidth(token.raw.trimEnd(), width())}\n\n`;
        })
        .join("");
    },
  };
}

/** A fenced code block's first line (an indented one is ended by any line that is not). */
const OPENING_FENCE = /^ {0,3}(?:```|~~~)/;
/** A line that may close a fence (marked's closing fence, and a few more, which only cost a lex). */
const CLOSING_FENCE = /^ {0,3}(?:`{3,}|~{3,})[ \t]*$/m;

function lastLine(text: string): string {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.slice(body.lastIndexOf("\n") + 1);
}

async function load(): Promise<Loaded> {
  const [{ Marked }, { markedTerminal }, { highlight }] = await Promise.all([import("marked"), import("marked-terminal"), import("cli-highlight")]);
  const marked = new Marked();
  marked.use(markedTerminal({ ...MARKDOWN_STYLES, emoji: false, reflowText: false, tab: 2, width: 80 }, { theme: CODE_THEME }));
  marked.use({
    renderer: {
      // marked-terminal highlights only when its chalk found colour by itself; the REPL has decided already.
      code(token) {
        let body: string;
        try {
          body = highlight(token.text, { language: token.lang || undefined, ignoreIllegals: true, theme: CODE_THEME });
        } catch {
          body = MARKDOWN_STYLES.code(token.text);
        }
        return `${body.replace(/^/gm, "  ")}\n\n`;
      },
      link(token) {
        const text = this.parser.parseInline(token.tokens);
        const plainText = Bun.stripANSI(text);
        return plainText === token.href ? underline(token.href) : `${text} (${underline(token.href)})`;
      },
    },
  });
  return {
    lex: (source) => marked.lexer(source),
    render: (block) => marked.parse(block, { async: false }) as string,
  };
}

/** SGR: `ESC [ params m`, colour and weight only. Everything else between them is text to clean. */
const SGR = /\u001b\[[0-9;]*m/g;

function onlySgr(rendered: string): string {
  let out = "";
  let last = 0;
  for (const match of rendered.matchAll(SGR)) {
    out += sanitizeForTerminal(rendered.slice(last, match.index), { keepNewlines: true }) + match[0];
    last = match.index + match[0].length;
  }
  return out + sanitizeForTerminal(rendered.slice(last), { keepNewlines: true });
}

/** Numeric character references to what the sanitizer would take out: C0/C1 controls, DEL, bidi controls. */
const CONTROL_REFERENCE = /&#(?:[xX]([0-9a-fA-F]+)|([0-9]+));?/g;

function safeSource(source: string): string {
  return sanitizeForTerminal(source, { keepNewlines: true }).replace(CONTROL_REFERENCE, (reference, hex: string | undefined, dec: string | undefined) => {
    const code = hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(dec ?? "", 10);
    const char = Number.isSafeInteger(code) && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    return sanitizeForTerminal(char, { keepNewlines: true }) === char && char !== "" ? reference : "";
  });
}

