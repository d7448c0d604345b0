import type { Token, Tokens } from "marked";
import { renderInline } from "./markdown-inline.ts";
import { renderList } from "./markdown-list.ts";
import { MARKDOWN_STYLES as S } from "./markdown-styles.ts";
import { renderTable } from "./markdown-table.ts";
import { stylesPerLine, wrapIndented } from "./text-wrap.ts";

/** Source code as coloured text (cli-highlight, loaded with the rest of the renderer). */
export type Highlight = (code: string, language: string | undefined) => string;

/** Code blocks are set off from the text by this indentation. */
export const CODE_INDENT = "  ";

/**
 * One Markdown block (a marked block token) as the rows a terminal `width` columns wide shows,
 * without line ends: headings without their `#`, paragraphs wrapped between words, code highlighted
 * and indented, lists numbered and nested, tables framed or row by row.
 */
export function renderBlock(token: Token, width: number, highlight: Highlight): string[] {
  switch (token.type) {
    case "heading":
      return wrapIndented(renderInline(token.tokens), width).map(token.depth === 1 ? S.firstHeading : S.heading);
    case "paragraph":
    case "text":
      return wrapIndented(inlineOf(token), width);
    case "code":
      return renderCode(token as Tokens.Code, width, highlight);
    case "list":
      return renderList(token as Tokens.List, width, (child, childWidth) => renderBlock(child, childWidth, highlight));
    case "table":
      return renderTable(token as Tokens.Table, width);
    case "blockquote":
      return renderBlocks(token.tokens ?? [], width - 2, highlight).map((row) => `${S.frame("│")} ${S.blockquote(row)}`);
    case "hr":
      return [S.frame("─".repeat(Math.min(width, 80)))];
    case "html":
      return wrapIndented(token.text.replace(/\n+$/, ""), width).map(S.html);
    default:
      // space, def (link definitions): nothing to show.
      return [];
  }
}

/** Blocks one after the other, a blank row between two. */
export function renderBlocks(tokens: readonly Token[], width: number, highlight: Highlight): string[] {
  const rows: string[] = [];
  for (const token of tokens) {
    const block = renderBlock(token, width, highlight);
    if (block.length === 0) continue;
    if (rows.length > 0) rows.push("");
    rows.push(...block);
  }
  return rows;
}

/** A code block's rows: highlighted, indented, a line longer than the window wrapped under its start. */
export function renderCode(token: Tokens.Code, width: number, highlight: Highlight): string[] {
  return codeRows(highlight(expandTabs(token.text), token.lang || undefined), width);
}

/** A tab's width is the terminal's to decide; as spaces, it is known, and wrapping counts right. */
export function expandTabs(code: string): string {
  return code.replaceAll("\t", "    ");
}

/** Highlighted code's rows, as `renderCode` lays them out. */
export function codeRows(highlighted: string, width: number): string[] {
  return stylesPerLine(highlighted).flatMap((line) => {
    // The code's own indentation stays; a wrapped line goes on under its first character.
    const own = /^ */.exec(line)?.[0] ?? "";
    const hanging = CODE_INDENT + (Bun.stringWidth(own) > width / 2 ? "" : own);
    return wrapIndented(line.slice(own.length), width, CODE_INDENT + own, hanging);
  });
}

/** A paragraph's or a tight list item's inline text; block `text` tokens hold inline ones, or only text. */
function inlineOf(token: Token): string {
  if ("tokens" in token && token.tokens?.length) return renderInline(token.tokens);
  return renderInline([{ type: "text", raw: token.raw, text: "text" in token ? String(token.text) : token.raw }]);
}
