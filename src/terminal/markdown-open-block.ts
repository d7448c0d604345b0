import type { Token, Tokens } from "marked";
import { codeRows, expandTabs, renderBlock, type Highlight } from "./markdown-blocks.ts";
import { renderInline } from "./markdown-inline.ts";
import { wrapIndented } from "./text-wrap.ts";

/**
 * Characters after which a paragraph's text may still change its look: an emphasis, a code span,
 * a link or HTML still open (`**bold` before its `**`), a strike-through, a table's first row.
 * `_` only where it can open emphasis: inside a word (`snake_case`) it is a letter.
 */
const MAY_CHANGE = /[*`~[<|]|(?<![\p{L}\p{N}])_/u;

/** Past this much code, a new line is highlighted with only the lines just before it as context. */
const WHOLE_HIGHLIGHT_LIMIT = 16_000;
const CONTEXT_LINES = 40;

/**
 * The rows of a Markdown block still being written (the model's answer streams) that will be the
 * first rows of the block once it is whole, whatever comes next: what can be shown already.
 *
 * - a paragraph: its full rows, up to where an open emphasis, code span or link could still change
 *   it; the last row may yet grow, so it waits;
 * - a fenced code block: every line that has ended, highlighted;
 * - a list: every item but the one still being written (the last, deepest one);
 * - a heading or a rule once its line has ended;
 * - a table, a quote, HTML: nothing until they end (a table's columns need all its rows).
 */
export function openBlockRows(token: Token, source: string, width: number, highlight: Highlight): string[] {
  const lineEnded = source.endsWith("\n");
  switch (token.type) {
    case "paragraph":
      return paragraphRows(token as Tokens.Paragraph, width);
    case "code":
      return /^ {0,3}(?:```|~~~)/.test(token.raw) ? fencedRows(token as Tokens.Code, lineEnded, width, highlight) : [];
    case "list":
      return renderBlock(withoutLastItem(structuredClone(token) as Tokens.List), width, highlight);
    case "heading":
    case "hr":
      return lineEnded ? renderBlock(token, width, highlight) : [];
    default:
      return [];
  }
}

function paragraphRows(paragraph: Tokens.Paragraph, width: number): string[] {
  const tokens = paragraph.tokens ?? [];
  let stable = "";
  for (const token of tokens) {
    if (token.type === "text" && !("tokens" in token && token.tokens?.length)) {
      const at = MAY_CHANGE.exec(token.text)?.index;
      if (at !== undefined) {
        stable += renderInline([{ ...token, text: token.text.slice(0, at) }]);
        break;
      }
    }
    stable += renderInline([token]);
  }
  return wrapIndented(stable, width).slice(0, -1);
}

function fencedRows(code: Tokens.Code, lineEnded: boolean, width: number, highlight: Highlight): string[] {
  const raw = code.raw.endsWith("\n") ? code.raw.slice(0, -1) : code.raw;
  const rawLines = raw.split("\n");
  const closed = rawLines.length > 1 && CLOSING_FENCE.test(rawLines.at(-1) ?? "") && lineEnded;
  // The fence's line is not code; the line being written is not shown yet, a line that has ended is final.
  const count = closed ? rawLines.length - 2 : rawLines.length - 1 - (lineEnded ? 0 : 1);
  if (count <= 0) return [];
  const lines = expandTabs(code.text).split("\n").slice(0, count);
  while (lines.length < count) lines.push("");
  return codeRows(highlightLines(lines, code.lang || undefined, highlight), width);
}

/** A line that closes a fence. */
const CLOSING_FENCE = /^ {0,3}(?:`{3,}|~{3,})[ \t]*$/;

/**
 * `lines` highlighted together (a string or a comment over several lines is coloured right). Of a
 * long block only the last lines are highlighted, with a few before them as context: the rows
 * before them were shown already, and only their number matters now; highlighting the whole block
 * again for each new line would take ever longer.
 */
function highlightLines(lines: string[], language: string | undefined, highlight: Highlight): string {
  const whole = lines.join("\n");
  if (whole.length <= WHOLE_HIGHLIGHT_LIMIT) return highlight(whole, language);
  const tail = highlight(lines.slice(-CONTEXT_LINES).join("\n"), language);
  return `${lines.slice(0, -CONTEXT_LINES).join("\n")}\n${tail}`;
}

/** A list without the item still being written: its last item, or, when that item ends in a nested list, that list's. */
function withoutLastItem(list: Tokens.List): Tokens.List {
  const item = list.items.at(-1);
  const last = item?.tokens.filter((token) => token.type !== "space").at(-1);
  if (last?.type === "list" && (last as Tokens.List).items.length > 0) withoutLastItem(last as Tokens.List);
  else list.items.pop();
  return list;
}
