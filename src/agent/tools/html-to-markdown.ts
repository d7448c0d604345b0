import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

/** Pages larger than this are not parsed whole: a DOM of it would take far more memory than the text is worth. */
const MAX_HTML_CHARS = 1_000_000;
/**
 * Readability scores every element: ~2 s for a 300 KB page of 30,000 elements on the development
 * machine. Past this size the page is converted whole instead, which costs a fraction of that.
 */
const MAX_READABILITY_CHARS = 500_000;

/**
 * A web page as readable Markdown: Readability keeps the article (no navigation, scripts, ads),
 * Turndown writes it as Markdown with absolute links. A page Readability finds no article in (or
 * one too large to score) is converted whole, scripts and styles left out.
 */
export function htmlToMarkdown(html: string, url: string): { title?: string; markdown: string } {
  const { document } = parseHTML(html.slice(0, MAX_HTML_CHARS));
  for (const link of document.querySelectorAll("a[href], img[src]")) {
    const attribute = link.hasAttribute("href") ? "href" : "src";
    try {
      link.setAttribute(attribute, new URL(link.getAttribute(attribute) ?? "", url).href);
    } catch {
      link.removeAttribute(attribute);
    }
  }
  const title = document.querySelector("title")?.textContent?.trim() || undefined;
  const whole = document.body?.innerHTML ?? html;
  let article: ReturnType<Readability["parse"]> = null;
  try {
    if (html.length <= MAX_READABILITY_CHARS) article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  } catch {
    article = null;
  }
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  turndown.remove(["script", "style", "noscript", "iframe", "object", "embed"] as never);
  const markdown = turndown.turndown(article?.content || whole).replace(/\n{3,}/g, "\n\n").trim();
  return { title: article?.title?.trim() || title, markdown };
}
