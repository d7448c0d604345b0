import type { Token, Tokens } from "marked";
import { codeRows, expandTabs, renderBlock, type Highlight } from "./markdown-blocks.ts";
import { renderInline } from "./markdown-inline.ts";
import { renderList } from "./markdown-list.ts";
import { offsetAfterRows, stylesOpenAfter, stylesPerLine, wrapIndented } from "./text-wrap.ts";

/**
 * Characters after which a paragraph's text may still change its look: an emphasis, a code span,
 * a link or HTML still open (`**bold` before its `**`), a strike-through, a table's first row.
 * Only where they can open something: `*`, `~` and `_` not before a blank (`2 * 3`), `_` not inside
 * a word (`snake_case`), `<` before a letter (`a < b` is text).
 */
const MAY_CHANGE = /[`[|]|[*~](?!\s)|(?<![\p{L}\p{N}])_(?!\s)|<(?![^A-Za-z/!?])/u;
/** A fenced code block's first line: its indentation, its fence, its language. */
const FENCE = /^( {0,3})(`{3,}|~{3,})/;
/** A new line of code is highlighted with this many lines before it: a string or comment begun there is coloured right. */
const CONTEXT_LINES = 4;

export interface MarkdownLexer {
  blocks(source: string): Token[];
  inline(source: string): Token[];
}

/** What is kept of the block being written between two calls, so each call does only the new part. */
type State = { width: number } & (
  /**
   * `computedAt`: how much of the raw text the rows were made from; `room`: the columns left on
   * their last row; `done`: the rows made final so far, and `doneText`, the styled text they were
   * made from (with the blanks after them): the rest is wrapped at the window's width now.
   */
  | { kind: "paragraph"; cut: number; head: string; computedAt: number; room: number; done: string[]; doneText: string }
  /** `consumed`: how much of the raw text was read, whole lines. */
  | { kind: "code"; language: string | undefined; fence: string; indent: number; consumed: number; lines: string[]; rows: string[]; closed: boolean }
  | { kind: "list"; items: number; rows: string[] }
  /** A heading or a rule shown once its line ended: shown again as it was, whatever the width now. */
  | { kind: "line"; type: string; rows: string[] }
  | { kind: "other" }
);

/**
 * The rows of the Markdown block still being written (the model's answer streams) that will be the
 * first rows of the block once it is whole, whatever comes next: what can be shown already.
 *
 * - a paragraph: its full rows, up to where an open emphasis, code span or link could still change
 *   it; the last row may yet grow, so it waits;
 * - a fenced code block: every line that has ended, highlighted;
 * - a list: every item but the one still being written (the last, deepest one);
 * - a heading or a rule once its line has ended;
 * - a table, a quote, HTML: nothing until they end (a table's columns need all its rows).
 *
 * Each call is given the block's text so far. While it only grows (`sameBlock`), only what is new
 * is lexed, highlighted and cleaned, so a long block costs about one pass over it, not one per line.
 */
export class OpenBlock {
  private state: State | undefined;

  /**
   * `prepare`: makes the model's raw text safe to lex (the renderer's input filter); `clean`: applied
   * to each row once it is made (its output filter).
   */
  constructor(
    private readonly lex: MarkdownLexer,
    private readonly highlight: Highlight,
    private readonly prepare: (raw: string) => string,
    private readonly clean: (row: string) => string,
  ) {}

  /**
   * The final rows of the block whose raw text so far is `raw`; undefined when nothing new can be
   * final. `width`: the window's now: what was shown stays as it is, what comes next is laid out at
   * it (a code block's next lines, a paragraph's next rows; a list keeps the width it began with).
   */
  rows(raw: string, lineEnded: boolean, width: number, sameBlock: boolean): string[] | undefined {
    const previous = sameBlock ? this.state : undefined;
    if (previous?.kind === "code") {
      previous.width = width;
      return this.codeRows(previous, raw);
    }
    // A line end may end a paragraph (a blank line) or make it something else: lexed again then.
    if (previous?.kind === "paragraph" && !lineEnded) return this.paragraphRows(Object.assign(previous, { width }), raw, false);
    if (previous && !lineEnded) return undefined;
    // Whole lines decide what the block is (and are what was just lexed to find the finished blocks).
    const lines = raw.slice(0, raw.lastIndexOf("\n") + 1);
    const blocks = this.lex.blocks(this.prepare(lines || raw)).filter((token) => token.type !== "space");
    const block = blocks[0];
    this.state = { kind: "other", width };
    if (!block || blocks.length !== 1) return undefined;
    switch (block.type) {
      case "paragraph":
        // `1` may be the start of `1. item`, `-` of a list or a rule, `#` of a heading: a paragraph
        // only once its first word is whole (a block's kind is decided by how its first line starts).
        if (!/^\s*\S+\s/.test(raw)) {
          this.state = undefined;
          return undefined;
        }
        this.state = previous?.kind === "paragraph" ? Object.assign(previous, { width }) : { kind: "paragraph", width, cut: 0, head: "", computedAt: 0, room: 0, done: [], doneText: "" };
        return this.paragraphRows(this.state, raw, true);
      case "code": {
        const fence = FENCE.exec(block.raw);
        // An indented block, or a fence whose first line is still being written: nothing to show yet.
        if (!fence || !raw.includes("\n")) return [];
        const language = (block as Tokens.Code).lang || undefined;
        const consumed = raw.indexOf("\n") + 1;
        const state: State = { kind: "code", width, language, fence: fence[2] ?? "```", indent: fence[1]?.length ?? 0, consumed, lines: [], rows: [], closed: false };
        this.state = state;
        return this.codeRows(state, raw);
      }
      case "list": {
        // A list keeps the width it began with: its last item's first rows may be on the screen.
        this.state = previous?.kind === "list" ? previous : { kind: "list", width, items: 0, rows: [] };
        // A line being written may be the next item's start: the item before it is done then.
        const list = lines === raw ? block : this.lex.blocks(this.prepare(raw)).find((token) => token.type !== "space");
        return list?.type === "list" ? this.listRows(this.state, list as Tokens.List, false) : undefined;
      }
      case "heading":
      case "hr": {
        // Its line must have ended (`# Hea` is not the heading yet).
        if (lines === "") return [];
        const rows = renderBlock(block, width, this.highlight).map(this.clean);
        this.state = { kind: "line", width, type: block.type, rows };
        return rows;
      }
      default:
        return [];
    }
  }

  /**
   * The rows of the block that grew here, now whole (`block`, lexed from `raw`, the finished text it
   * begins): the rows shown while it grew, then the rest at `width` (a list at its own). Undefined when this
   * is not the block that grew (it became something else): it is rendered anew then.
   */
  whole(block: Token, raw: string, width: number): string[] | undefined {
    const state = this.state;
    this.state = undefined;
    if (state?.kind === "code" && block.type === "code") return this.codeRows({ ...state, width }, raw.endsWith("\n") ? raw : `${raw}\n`);
    if (state?.kind === "list" && block.type === "list") return this.listRows(state, block as Tokens.List, true);
    if (state?.kind === "line" && block.type === state.type) return state.rows;
    if (state?.kind === "paragraph" && block.type === "paragraph") {
      const rest = this.wrapRest(Object.assign(state, { width }), renderInline((block as Tokens.Paragraph).tokens));
      return rest && [...state.done, ...rest.map(this.clean)];
    }
    return undefined;
  }

  /**
   * A paragraph's rows: its text up to where it could still change, rendered and wrapped, all but the
   * last row. The text before `cut` (a space in the text, with nothing open before it) was lexed
   * already and is kept rendered in `head`; only the rest is lexed again.
   */
  private paragraphRows(state: State & { kind: "paragraph" }, raw: string, lineEnded: boolean): string[] | undefined {
    const width = state.width;
    // No row can be full before the new text is at least as wide as the room left on the last one.
    if (!lineEnded && state.computedAt > 0 && Bun.stringWidth(raw.slice(state.computedAt)) < state.room) return undefined;
    state.computedAt = raw.length;
    const prepared = this.prepare(raw).trimStart();
    // Ended by a blank line since it was lexed: its rows wait for the next line end, which shows it whole.
    if (/\n[ \t]*\n/.test(prepared)) return undefined;
    const text = prepared.replace(/\n$/, "");
    const tail = text.slice(state.cut);
    let stable = "";
    let cutAt = 0;
    let cutHead = "";
    let offset = 0;
    for (const token of this.lex.inline(tail)) {
      if (token.type === "text" && !("tokens" in token && token.tokens?.length) && token.text === token.raw) {
        const open = MAY_CHANGE.exec(token.text)?.index;
        const usable = token.text.slice(0, open ?? token.text.length);
        const space = usable.search(/\s\S*$/);
        if (space > 0 || (space === 0 && offset > 0)) {
          cutAt = offset + space;
          cutHead = stable + renderInline([{ ...token, raw: usable.slice(0, space), text: usable.slice(0, space) }]);
        }
        if (open !== undefined) {
          stable += renderInline([{ ...token, raw: usable, text: usable }]);
          break;
        }
      } else if (token.type === "text" && MAY_CHANGE.test(token.raw)) {
        break;
      }
      stable += renderInline([token]);
      offset += token.raw.length;
    }
    const styled = state.head + stable;
    if (cutAt > 0) {
      state.head += cutHead;
      state.cut += cutAt;
    }
    const rows = this.wrapRest(state, styled);
    if (rows === undefined) return undefined;
    const last = rows.pop();
    state.room = Math.max(1, width - Bun.stringWidth(last ?? ""));
    if (rows.length > 0) {
      state.doneText = styled.slice(0, offsetAfterRows(styled, state.doneText.length, rows));
      state.done.push(...rows.map(this.clean));
    }
    return [...state.done];
  }

  /**
   * A paragraph's styled text so far, past the rows already final, wrapped at the width now: rows
   * shown stay as they are, and what comes after them fits the window even after a resize. (Greedy
   * wrapping from the start of a row makes the same rows as from the start of the text.)
   */
  private wrapRest(state: State & { kind: "paragraph" }, text: string): string[] | undefined {
    // The text before the final rows cannot change (nothing was open in it); if it did, nothing more is shown of it.
    if (!text.startsWith(state.doneText)) return undefined;
    const rest = stylesOpenAfter(state.doneText).join("") + text.slice(state.doneText.length);
    return wrapIndented(rest, state.width);
  }

  /** A fenced block's lines that have ended (up to a closing fence), each highlighted once, with a few lines before it as context. */
  private codeRows(state: State & { kind: "code" }, raw: string): string[] {
    if (state.closed) return [...state.rows];
    const end = raw.lastIndexOf("\n") + 1;
    if (end <= state.consumed) return [...state.rows];
    const fresh = this.prepare(raw.slice(state.consumed, end)).split("\n").slice(0, -1);
    state.consumed = end;
    const lines: string[] = [];
    for (const line of fresh) {
      if (closesFence(line, state.fence)) {
        state.closed = true;
        break;
      }
      lines.push(expandTabs(line.replace(new RegExp(`^ {0,${state.indent}}`), "")));
    }
    if (lines.length === 0) return [...state.rows];
    const context = state.lines.slice(-CONTEXT_LINES);
    const highlighted = stylesPerLine(this.highlight([...context, ...lines].join("\n"), state.language)).slice(context.length);
    state.lines.push(...lines);
    state.rows.push(...codeRows(highlighted.join("\n"), state.width).map(this.clean));
    return [...state.rows];
  }

  /** A list's items but the last (all of them once it is `whole`), each rendered once; and of the last, what comes before its last nested item. */
  private listRows(state: State & { kind: "list" }, list: Tokens.List, whole: boolean): string[] {
    const start = typeof list.start === "number" ? list.start : 1;
    const render = (items: Tokens.ListItem[], from: number) =>
      renderList({ ...list, items, start: start + from }, state.width, (child, childWidth) => renderBlock(child, childWidth, this.highlight)).map(this.clean);
    const done = whole ? list.items.length : list.items.length - 1;
    if (done > state.items) {
      state.rows.push(...render(list.items.slice(state.items, done), state.items));
      state.items = done;
    }
    const last = whole ? undefined : list.items.at(-1);
    const rest = last ? withoutLastItem({ ...list, items: [structuredClone(last)] }).items : [];
    return [...state.rows, ...(rest.length > 0 ? render(rest, done) : [])];
  }
}

/** A list without the item still being written: its last item, or, when that item ends in a nested list, that list's. */
function withoutLastItem(list: Tokens.List): Tokens.List {
  const item = list.items.at(-1);
  const last = item?.tokens.filter((token) => token.type !== "space").at(-1);
  if (last?.type === "list" && (last as Tokens.List).items.length > 0) withoutLastItem(last as Tokens.List);
  else list.items.pop();
  return list;
}


/** A line that closes a fence opened by `fence`: the same character, at least as many, nothing after but blanks. */
function closesFence(line: string, fence: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return match?.[1] !== undefined && match[1][0] === fence[0] && match[1].length >= fence.length;
}
