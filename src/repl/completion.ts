import { log } from "../log.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

/** The answer to Tab (see LineEditor): the candidates, and the word before the cursor that they replace. */
export type Completions = [candidates: string[], word: string];

/**
 * One kind of word that Tab completes: a slash command and its arguments, an `@server:uri` mention
 * (and, with issue 14, an `@file` path). Given the line up to the cursor, a source answers for the
 * word it recognizes there, or undefined when that word is not its kind.
 */
export type CompletionSource = (line: string) => Promise<Completions | undefined> | Completions | undefined;

/** Beyond this many candidates, only the first are offered: a server may list thousands of URIs. */
export const MAX_CANDIDATES = 100;

/**
 * The REPL's Tab: asks every source, and offers what those that recognized the word found (two kinds
 * may share a word, as `@server:` and `@file` will). It never rejects and never prints: a source that
 * fails completes nothing and leaves a debug line, since anything printed would land over the prompt.
 */
export function createCompleter(sources: CompletionSource[]): (line: string) => Promise<Completions> {
  return async (line) => {
    const answers = await Promise.all(sources.map((source) => ask(source, line)));
    const found = answers.filter((answer): answer is Completions => answer !== undefined);
    const word = found[0]?.[1] ?? line;
    const candidates = found.filter(([, sameWord]) => sameWord === word).flatMap(([values]) => values);
    return [offered(candidates, word), word];
  };
}

async function ask(source: CompletionSource, line: string): Promise<Completions | undefined> {
  try {
    return await source(line);
  } catch (error) {
    log.debug(`tab completion failed: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/**
 * What Tab may insert: candidates that extend the word (the editor would delete the word to put
 * one that does not), that can be typed (no control characters, no line breaks: a server's value
 * could otherwise act on the terminal) and that are not repeated. Past MAX_CANDIDATES, the common
 * prefix of all of them comes first, so that Tab still inserts only what every candidate shares.
 */
function offered(candidates: string[], word: string): string[] {
  const typeable = [...new Set(candidates)].filter((candidate) => candidate.startsWith(word) && sanitizeForTerminal(candidate) === candidate);
  if (typeable.length <= MAX_CANDIDATES) return typeable;
  return [commonPrefix(typeable), ...typeable.slice(0, MAX_CANDIDATES - 1)];
}

export function commonPrefix(values: string[]): string {
  let prefix = values[0] ?? "";
  for (const value of values) {
    let i = 0;
    while (i < prefix.length && i < value.length && prefix[i] === value[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}

/** The candidates in columns across the terminal, as readline listed them. */
export function candidateColumns(candidates: string[], columns: number | undefined): string {
  const widths = candidates.map((candidate) => Bun.stringWidth(candidate));
  const width = Math.max(...widths) + 2;
  const perRow = (columns && Math.floor(columns / width)) || 1;
  const rows: string[] = [];
  for (let i = 0; i < candidates.length; i += perRow) {
    const row = candidates.slice(i, i + perRow);
    rows.push(row.map((candidate, j) => (j < row.length - 1 ? candidate + " ".repeat(width - (widths[i + j] as number)) : candidate)).join(""));
  }
  return `${rows.join("\r\n")}\r\n`;
}
