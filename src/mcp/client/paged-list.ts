import * as v from "valibot";
import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import { parseResult } from "./parse-result.ts";

/** A server that keeps handing out cursors is broken, not large. */
export const MAX_LIST_PAGES = 1000;
/** The most items one list may hold, all pages together: past that, the list is refused, not cut. */
export const MAX_LIST_ITEMS = 100_000;

export interface PagedListOptions<T> {
  /** The list method: `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`. */
  method: string;
  /** The result's field that holds the page's items: `tools`, `resources`, `resourceTemplates`, `prompts`. */
  field: string;
  /** Sends one page's request. */
  request: (params: Record<string, unknown>) => Promise<unknown>;
  /** Checks one page's raw items on its own, returning those kept; `offset` is the place of the first in the whole list. */
  accept: (raws: unknown[], offset: number) => T[];
  maxPages?: number;
  maxItems?: number;
}

/**
 * Every page of a list, by `nextCursor`. A cursor the server already gave, more than `maxPages`
 * pages or more than `maxItems` items in all are errors of the server's (it loops, or floods). The
 * page envelope is checked here; each item is the caller's (`accept`), so one bad item costs only
 * itself and the page's depth is not bounded here.
 */
export async function fetchAllPages<T>(options: PagedListOptions<T>): Promise<T[]> {
  const { method, field } = options;
  const maxPages = options.maxPages ?? MAX_LIST_PAGES;
  const maxItems = options.maxItems ?? MAX_LIST_ITEMS;
  const Page = v.looseObject({ [field]: v.array(v.unknown()), nextCursor: v.optional(v.string()) });
  const items: T[] = [];
  const seenCursors = new Set<string>();
  let listed = 0;
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const raw = await options.request(cursor === undefined ? {} : { cursor });
    const result = parseResult(Page, raw, method, Infinity) as { nextCursor?: string } & Record<string, unknown[]>;
    const raws = result[field]!;
    if (listed + raws.length > maxItems) {
      throw new McpError(ErrorCode.InvalidResult, `${method} gave more than ${maxItems.toLocaleString("en-US")} items; the list was refused`);
    }
    items.push(...options.accept(raws, listed));
    listed += raws.length;
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === "") return items;
    if (seenCursors.has(cursor)) throw new McpError(undefined, `${method} repeated the cursor ${JSON.stringify(cursor.slice(0, 200))}`);
    seenCursors.add(cursor);
  }
  throw new McpError(undefined, `${method} gave more than ${maxPages} pages`);
}
