import type { Token } from "marked";
import type { TextFormat } from "./answer-stream.ts";
import { renderBlock, type Highlight } from "./markdown-blocks.ts";
import { OpenBlock } from "./markdown-open-block.ts";
import { CODE_THEME, MARKDOWN_STYLES } from "./markdown-styles.ts";
import { sanitizeForTerminal } from "./terminal-text.ts";

/**
 * What `marked` gives us, loaded on first use: with highlight.js it takes ~200 ms from source and
 * ~60 ms in the compiled binary, which the prompt must not wait for.
 */
interface Loaded {
  lex(source: string): Token[];
  lexInline(source: string): Token[];
  highlight: Highlight;
}

let loading: Promise<Loaded> | undefined;

/**
 * Starts loading the Markdown renderer (marked, cli-highlight) in the background and resolves when
 * it is ready. The REPL calls it once its prompt is up, so the prompt never waits for it, and awaits
 * it before a turn, by which time it has long been loaded.
 */
export function loadMarkdown(): Promise<void> {
  loading ??= load();
  return loading.then(() => undefined);
}

/**
 * The model's answer as Markdown for a terminal `width()` columns wide (see AnswerStream): a
 * finished block at a time, and of the block still being written, the rows that can no longer
 * change (markdown-open-block.ts). marked cuts the text into blocks; the blocks are drawn here
 * (markdown-blocks.ts). Resolves once the renderer is loaded (normally long since, by
 * `loadMarkdown`); if it cannot be loaded, `fallback` (plain lines).
 *
 * The model's text is hostile. Escape sequences and control characters are taken out before
 * marked sees it (character references to them too: `&#27;` could be decoded into an ESC), and
 * after rendering only SGR (colour and weight) sequences are let through.
 */
export async function markdownFormat(width: () => number, fallback: TextFormat): Promise<TextFormat> {
  const loaded = await (loading ??= load()).catch(() => undefined);
  if (!loaded) return fallback;
  /**
   * The lines last lexed when they were one open fenced code block, nothing finished: only a closing
   * fence can end it, so while the lines after them have none they need not be lexed again.
   */
  let openFence: string | undefined;
  /** The text last lexed into blocks, and its tokens: finding the finished blocks and showing the open one lex the same lines. */
  let lexed: { source: string; tokens: Token[] } | undefined;
  const lexBlocks = (source: string) => (lexed?.source === source ? lexed.tokens : (lexed = { source, tokens: loaded.lex(source) }).tokens);
  const open = new OpenBlock({ blocks: lexBlocks, inline: (source) => loaded.lexInline(source) }, loaded.highlight, safeSource, onlySgr);
  return {
    finishedLength(pending, atEnd) {
      if (atEnd) return pending.length;
      // Only whole lines decide a block's kind (`2` may yet become `2. item` of the list above).
      const lines = pending.slice(0, pending.lastIndexOf("\n") + 1);
      if (openFence !== undefined && lines.startsWith(openFence) && !CLOSING_FENCE.test(lines.slice(openFence.length))) {
        openFence = lines;
        return 0;
      }
      const tokens = lexBlocks(lines);
      // The last block may still grow (a paragraph, a list, an open code fence); the ones before it are done.
      let last = tokens.length - 1;
      while (last >= 0 && tokens[last]?.type === "space") last--;
      // …unless a blank line has ended it: a paragraph, a heading, a table or a rule cannot go on after one.
      const ended = last < tokens.length - 1 && ENDED_BY_BLANK_LINE.has(tokens[last]?.type ?? "");
      const only = last === 0 ? tokens[0] : undefined;
      // A fence whose last line could close it may be closed: lexed again next time.
      openFence = only?.type === "code" && OPENING_FENCE.test(only.raw) && !CLOSING_FENCE.test(lastLine(only.raw)) ? lines : undefined;
      return tokens.slice(0, ended ? tokens.length : Math.max(0, last)).reduce((sum, token) => sum + token.raw.length, 0);
    },
    format(finished, grown) {
      let first = grown;
      return loaded
        .lex(safeSource(finished))
        .map((token) => {
          if (token.type === "space") return "";
          // The block shown while it grew comes out as it was shown (markdown-open-block.ts).
          const rows = (first && open.whole(token, finished, width())) || renderBlock(token, width(), loaded.highlight).map(onlySgr);
          first = false;
          return rows.length === 0 ? "" : `${rows.join("\n")}\n\n`;
        })
        .join("");
    },
    openLines(pending, lineEnded, sameBlock) {
      return open.rows(pending, lineEnded, width(), sameBlock);
    },
  };
}

/** Blocks that a blank line after them ends (a list, a quote or indented code may go on after one). */
const ENDED_BY_BLANK_LINE = new Set(["paragraph", "heading", "table", "hr"]);

/** A fenced code block's first line (an indented one is ended by any line that is not). */
const OPENING_FENCE = /^ {0,3}(?:```|~~~)/;
/** A line that may close a fence (marked's closing fence, and a few more, which only cost a lex). */
const CLOSING_FENCE = /^ {0,3}(?:`{3,}|~{3,})[ \t]*$/m;

function lastLine(text: string): string {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.slice(body.lastIndexOf("\n") + 1);
}

async function load(): Promise<Loaded> {
  const [{ Marked }, { highlight }] = await Promise.all([import("marked"), import("cli-highlight")]);
  const marked = new Marked();
  return {
    lex: (source) => marked.lexer(source),
    lexInline: (source) => marked.Lexer.lexInline(source, marked.defaults),
    highlight(code, language) {
      // Guessing the language tries every one highlight.js knows: too slow to do for each new line.
      if (language === undefined) return MARKDOWN_STYLES.code(code);
      try {
        return highlight(code, { language, ignoreIllegals: true, theme: CODE_THEME });
      } catch {
        // A language highlight.js does not know.
        return MARKDOWN_STYLES.code(code);
      }
    },
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

