import type { Tool } from "./tool.ts";

/**
 * BM25 over the deferred tools' names, descriptions and parameter names, kept up to date one tool
 * at a time: adding or removing a tool touches only its own terms, so a server that joins late or
 * changes its tools never makes the others be indexed again, and registering N tools costs O(N).
 * A query is scored over the postings of its own terms only.
 */
const K1 = 1.2;
const B = 0.75;
/** Words that would match nearly every tool and only blur the ranking. */
const STOP_WORDS = new Set(["a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "by", "with", "is", "it", "this", "that", "from", "as", "be", "mcp"]);
/** Enough of a description to rank by; a hostile server's megabyte of text stays out of memory. */
const MAX_INDEXED_CHARS = 4_000;
const MAX_PARAMETER_NAMES = 100;

interface IndexedTool {
  tool: Tool;
  /** Term -> how often it occurs in this tool's text. */
  terms: Map<string, number>;
  length: number;
}

export interface SearchHit {
  tool: Tool;
  score: number;
  /** How many of the query's distinct words the tool has. */
  matched: number;
}

export class ToolSearchIndex {
  private readonly docs = new Map<string, IndexedTool>();
  /** Term -> the names of the tools it occurs in, with its count there. */
  private readonly postings = new Map<string, Map<string, number>>();
  private totalLength = 0;

  get size(): number {
    return this.docs.size;
  }

  add(tool: Tool): void {
    if (this.docs.has(tool.name)) this.remove(tool.name);
    const terms = new Map<string, number>();
    let length = 0;
    for (const term of termsOf(textOf(tool))) {
      terms.set(term, (terms.get(term) ?? 0) + 1);
      length++;
    }
    this.docs.set(tool.name, { tool, terms, length });
    this.totalLength += length;
    for (const [term, count] of terms) {
      let posting = this.postings.get(term);
      if (!posting) this.postings.set(term, (posting = new Map()));
      posting.set(tool.name, count);
    }
  }

  remove(name: string): void {
    const doc = this.docs.get(name);
    if (!doc) return;
    this.docs.delete(name);
    this.totalLength -= doc.length;
    for (const term of doc.terms.keys()) {
      const posting = this.postings.get(term);
      posting?.delete(name);
      if (posting?.size === 0) this.postings.delete(term);
    }
  }

  get(name: string): Tool | undefined {
    return this.docs.get(name)?.tool;
  }

  /** The best `limit` tools for the words of `query`, best first; ties keep the order tools joined. */
  search(query: string, limit: number, only?: (tool: Tool) => boolean): SearchHit[] {
    const n = this.docs.size;
    if (n === 0) return [];
    const averageLength = this.totalLength / n || 1;
    const scores = new Map<string, { score: number; matched: number }>();
    for (const term of new Set(termsOf(query))) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [name, count] of posting) {
        const length = this.docs.get(name)!.length;
        const score = (idf * count * (K1 + 1)) / (count + K1 * (1 - B + (B * length) / averageLength));
        const sum = scores.get(name);
        if (sum) {
          sum.score += score;
          sum.matched++;
        } else scores.set(name, { score, matched: 1 });
      }
    }
    const hits: SearchHit[] = [];
    for (const [name, { score, matched }] of scores) {
      const tool = this.docs.get(name)!.tool;
      if (!only || only(tool)) hits.push({ tool, score, matched });
    }
    // Map order is insertion order, and sort is stable: equal scores stay in joining order.
    return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  /** Every indexed tool, in the order they joined. */
  list(): Tool[] {
    return [...this.docs.values()].map((doc) => doc.tool);
  }
}

/** Name (its origin's prefix left out), description and parameter names, bounded. */
function textOf(tool: Tool): string {
  const prefix = tool.origin?.namePrefix;
  const name = prefix && tool.name.startsWith(prefix) ? tool.name.slice(prefix.length) : tool.name;
  const parameters = Object.keys(propertiesOf(tool.inputSchema)).slice(0, MAX_PARAMETER_NAMES);
  // The name counts twice: a tool named for the words asked about beats one that mentions them.
  return [name, name, tool.origin?.server ?? "", tool.description.slice(0, MAX_INDEXED_CHARS), ...parameters].join(" ");
}

function propertiesOf(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties;
  return properties && typeof properties === "object" && !Array.isArray(properties) ? (properties as Record<string, unknown>) : {};
}

/**
 * Lower-case words: `create_issue`, `createIssue` and `create-issue` all give "create" and
 * "issue"; a trailing plural "s" is dropped so "issues" finds "issue".
 */
export function termsOf(text: string): string[] {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  const terms: string[] = [];
  for (const word of words) {
    if (word === "" || STOP_WORDS.has(word)) continue;
    terms.push(word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word);
  }
  return terms;
}
