import type { Token } from "marked";
import { MARKDOWN_STYLES as S } from "./markdown-styles.ts";

/**
 * A block's inline Markdown (marked's inline tokens) as styled text: bold, italics, code spans,
 * strike-through, links. A line break the author wrote stays one.
 *
 * Links show their address, `text (address)`, so a link cannot look like another address than the
 * one it opens. An address marked found by itself in the text (`https://…`, and `pkg@1.2.3` or
 * `user@host.com`, which it takes for e-mail) is shown as written: no `(mailto:…)` the author did
 * not write.
 */
export function renderInline(tokens: readonly Token[] | undefined): string {
  return (tokens ?? []).map(renderToken).join("");
}

function renderToken(token: Token): string {
  switch (token.type) {
    case "text":
      return "tokens" in token && token.tokens?.length ? renderInline(token.tokens) : decodeEntities(token.text);
    case "escape":
      return token.text;
    case "strong":
      return S.strong(renderInline(token.tokens));
    case "em":
      return S.em(renderInline(token.tokens));
    case "del":
      return S.del(renderInline(token.tokens));
    case "codespan":
      return S.codespan(decodeEntities(token.text));
    case "br":
      return "\n";
    case "link":
      return renderLink(token.href, renderInline(token.tokens), token.autolink === true);
    case "image":
      return `${S.em(token.text || "image")} (${S.href(token.href)})`;
    case "html":
      // `<br>` is how a table cell holds two lines; other tags are shown as written.
      return /^<br\s*\/?>$/i.test(token.text) ? "\n" : S.html(token.text);
    case "checkbox":
      return token.checked ? "[x] " : "[ ] ";
    default:
      return decodeEntities(token.raw);
  }
}

function renderLink(href: string, text: string, autolink: boolean): string {
  const plainText = Bun.stripANSI(text);
  if (href === `mailto:${plainText}`) return text;
  if (autolink || plainText === href) return S.href(plainText);
  return `${text} (${S.href(href)})`;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** marked leaves the named character references of the text as written (its HTML output needs them so). */
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => (name === "#39" ? "'" : (ENTITIES[name] ?? "")));
}
