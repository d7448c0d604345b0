import { cutText } from "../system/cut-text.ts";
import { frontMatter } from "../system/front-matter-file.ts";
import { splitRules } from "../system/permission-rule-syntax.ts";
import { splitShellWords } from "../system/shell-words.ts";
import { firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";

/** Past this many characters a description is cut: it is one row of /help and of the menu. */
const DESCRIPTION_CHARS = 200;

/**
 * A custom command as Claude Code reads it from `commands/<name>.md`: optional front matter
 * (`description`, `allowed-tools`, `argument-hint`) between `---` lines, then the prompt itself,
 * with `$ARGUMENTS` (all that was typed after the name) and `$1`… (its words) filled in.
 */
export interface CommandFile {
  /** One line, sanitized: what /help and the menu show. */
  description: string;
  argumentHint: string;
  /** Rules in settings.json's syntax, as written; checked where they are used. */
  allowedTools: string[];
  body: string;
}

/** Reads one command file's text (already bounded in size by its reader). */
export function parseCommandFile(text: string): CommandFile {
  const { fields, body } = frontMatter(text);
  const tools = fields.get("allowed-tools");
  const description = sanitizeForTerminal(fields.get("description")?.join(" ") ?? firstLine(body));
  return {
    description: cutText(description, DESCRIPTION_CHARS),
    argumentHint: sanitizeForTerminal(fields.get("argument-hint")?.join(" ") ?? "").slice(0, DESCRIPTION_CHARS),
    // `[a, b]` is a YAML list; as one line, `a, b` is what splitRules reads anyway.
    allowedTools: tools ? splitRules(tools.map((value) => value.replace(/^\[(.*)\]$/, "$1"))) : [],
    body,
  };
}

/**
 * The prompt sent for `/name <args>`: `$ARGUMENTS` is everything typed after the name, `$1`… `$9`
 * its words (quotes group words, as in a shell; a missing one is empty). A command that uses
 * neither still gets what was typed, after it, as Claude Code does.
 */
export function expandArguments(body: string, args: string): string {
  const typed = args.trim();
  let used = false;
  let words: string[] | undefined;
  const expanded = body.replace(/\$ARGUMENTS\b|\$([1-9])(?![0-9])/g, (_match, position: string | undefined) => {
    used = true;
    if (position === undefined) return typed;
    words ??= wordsOf(typed);
    return words[Number(position) - 1] ?? "";
  });
  if (used || typed === "") return expanded;
  return `${expanded.trimEnd()}\n\nARGUMENTS: ${typed}`;
}

function wordsOf(text: string): string[] {
  try {
    return splitShellWords(text);
  } catch {
    // An unclosed quote: plain blanks then, rather than an error for a prompt.
    return text.split(/\s+/).filter(Boolean);
  }
}
