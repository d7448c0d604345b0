import type { PermissionGate } from "../agent/permission.ts";
import { fetchHost, ruleDecision } from "../agent/permission-rules.ts";
import { readOnlyPart } from "../agent/read-only-commands.ts";
import { suggestedBashRules, suggestedRule } from "../agent/suggested-rule.ts";
import { exceedsDepth, MAX_RESULT_DEPTH } from "../system/json-depth.ts";
import { isOwnNetworkHost } from "../system/network-address.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { wrapLine } from "../terminal/text-wrap.ts";
import { permissionView } from "./permission-view.ts";
import { plainStyle, type Style } from "./tool-call-line.ts";

/** Up to this many lines, the whole call is shown at once; past it, a page at a time. */
export const MAX_UNPAGED_LINES = 200;

/**
 * Asks one question and resolves the answer; null when input ended or the turn was cancelled. At a
 * terminal, one of `keys` typed on an empty line answers at once, without Enter.
 */
export type Ask = (question: string, signal?: AbortSignal, keys?: readonly string[]) => Promise<string | null>;

export interface PermissionPromptOptions {
  /** Called before anything is shown (ends a line of streamed text). */
  before?: () => void;
  /** Writes one line. */
  print?: (line: string) => void;
  /** Shows text in the user's $PAGER and resolves true once it is closed; absent without a terminal. */
  page?: (text: string) => Promise<boolean>;
  /** Terminal width (read at each question: the window may have been resized) and height. */
  columns?: number | (() => number | undefined);
  rows?: number;
  style?: Style;
  /** The working folder, against which path rules are read. */
  cwd?: string;
  /**
   * Saves an "always" rule (`a`: the project's settings, `A`: the user's) and resolves the file
   * written; absent, "always" holds until the REPL exits. A save that fails still allows the rule
   * for this session (the line says so).
   */
  saveRule?: (rule: string, scope: "project" | "user") => Promise<string>;
  /**
   * Allows rules until cat-code exits ("s": yes, and don't ask again this session), where the policy
   * reads them with the saved ones (PermissionSettings.allowForSession); absent, the gate keeps them.
   */
  allowForSession?: (rules: readonly string[]) => void;
  /** Esc at the terminal (cancelKeys): while the question is open, it answers no. */
  escape?: (listener: () => void) => () => void;
}

/** The single keys the question takes: yes, no, always here, always everywhere, this session. */
const ANSWER_KEYS = ["y", "n", "a", "A", "s"] as const;

/**
 * The REPL's permission gate. It shows the whole call (see permissionView), then asks
 * `Allow <tool>? [y]es / [n]o / [a]lways for … in this project / [A] in all projects / [s] yes, don't
 * ask again this session`, each a single key (Esc is no). "Always" saves a rule: the command's
 * prefix for bash (`Bash(npm test:*)`; for a line of several commands one rule per part that is not
 * read-only, see suggestedBashRules), the tool otherwise (see suggestedRule); `a` to the project's
 * settings, `A` to the user's, saying where in one line. `s` allows the same rules (or, where none
 * can be made, this exact call) until cat-code exits. A call longer than MAX_UNPAGED_LINES is shown
 * a page at a time and `y` is refused until every page was shown, or the user read it in $PAGER
 * (`v`). No is the user's own no: the turn stops ("stop"), and so does no answer (Ctrl-D, Ctrl-C).
 */
export function interactivePermissions(ask: Ask, options: PermissionPromptOptions = {}): PermissionGate {
  const rulesUntilExit: string[] = [];
  /** Calls allowed for the session that no rule can describe (`ls $(pwd)`), by tool and input. */
  const callsUntilExit = new Set<string>();
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const style = options.style ?? plainStyle;
  const columns = () => (typeof options.columns === "function" ? options.columns() : options.columns);
  const width = () => Math.max(columns() ?? 120, 40);
  const pageLines = Math.max((options.rows ?? 40) - 2, 10);
  const cwd = options.cwd ?? process.cwd();
  const remember = async (rules: readonly string[], scope: "project" | "user") => {
    // Saved, the rule lives in the settings (where /permissions can remove it); else here, until exit.
    if (!options.saveRule) return void rulesUntilExit.push(...rules);
    for (const rule of rules) {
      try {
        print(style.dim(`Saved ${sanitizeForTerminal(rule)} to ${sanitizeForTerminal(await options.saveRule(rule, scope))}`));
      } catch (error) {
        // The saver keeps a rule it could not write for the session.
        print(style.red(`Could not save ${sanitizeForTerminal(rule)}: ${sanitizeForTerminal((error as Error).message)}; allowed until cat-code exits`));
      }
    }
  };
  const forSession = (rules: readonly string[] | undefined, callKey: string | undefined) => {
    if (!rules) return void (callKey !== undefined && callsUntilExit.add(callKey));
    if (options.allowForSession) options.allowForSession(rules);
    else rulesUntilExit.push(...rules);
    print(style.dim(`Allowed until cat-code exits: ${rules.map((rule) => sanitizeForTerminal(rule)).join(", ")}`));
  };
  return async ({ tool, input, preview = { kind: "arguments", input }, signal, requester }) => {
    const callKey = callKeyOf(tool.name, input);
    if ((callKey !== undefined && callsUntilExit.has(callKey)) || ruleDecision({ allow: rulesUntilExit, deny: [] }, tool.name, input, cwd) === "allow") return "allow";
    options.before?.();
    const lines = permissionView(tool.name, preview, width(), style);
    if (lines.length <= MAX_UNPAGED_LINES) {
      for (const line of lines) print(line);
    } else {
      const seen = await pageThrough(lines, { ask, print, page: options.page, pageLines, signal });
      if (!seen) return "stop";
    }
    const rules = await rulesFor(tool.name, input, cwd);
    const always = rules ? ` / [a]lways for ${alwaysWhat(tool.name, rules)} in this project / [A] in all projects` : "";
    // A subagent's call says whose it is: the user did not ask for that agent's work directly.
    const whose = requester ? `(subagent ${sanitizeForTerminal(requester)}) ` : "";
    const question = `${whose}Allow ${sanitizeForTerminal(tool.name)}? [y]es / [n]o${always} / [s] yes for this session ${ownNetworkNote(tool.name, input)}`;
    const keys = ANSWER_KEYS.filter((key) => rules || (key !== "a" && key !== "A"));
    for (;;) {
      // At a terminal, wrapped between words ahead of it (it would cut `in this project` mid-word):
      // the rows above the last are printed, and the last is the question's prompt.
      const rows = columns() === undefined ? [question.trimEnd()] : wrapLine(question.trimEnd(), width() - 1);
      for (const row of rows.slice(0, -1)) print(row);
      const answer = await askWithEscape(ask, `${rows.at(-1) ?? ""} `, keys, signal, options.escape);
      if (answer === null) return "stop";
      const word = answer.trim();
      if (rules && (word === "a" || word === "A" || word.toLowerCase() === "always")) {
        await remember(rules, word === "A" ? "user" : "project");
        return "allow";
      }
      switch (word.toLowerCase()) {
        case "y":
        case "yes":
          return "allow";
        case "s":
          forSession(rules, callKey);
          return "allow";
        case "n":
        case "no":
          return "stop";
        case "a":
          if (tool.name !== "bash") print("(no 'always' for this call: answer y, s or n)");
          else print("(no 'always' for a command with $(…), a redirection, or one run by sudo, bash -c, python -c…: a rule could not match it; answer y, s or n)");
          break;
        // Anything else, an empty line included, asks again: a stray Enter should not decide.
      }
    }
  };
}

/** The rules "always" (and "s") stand for; undefined when no rule can cover the call. */
async function rulesFor(toolName: string, input: Record<string, unknown>, cwd: string): Promise<string[] | undefined> {
  if (toolName !== "bash") {
    const rule = suggestedRule(toolName, input);
    return rule === undefined ? undefined : [rule];
  }
  if (typeof input.command !== "string") return undefined;
  return suggestedBashRules(input.command, (part) => readOnlyPart(part, cwd));
}

/**
 * For a fetch of `localhost` or a private address, why no answer here can open it: that takes a
 * rule the user writes by hand (see guarded-fetch.ts), so neither "always" nor "s" offers one.
 */
function ownNetworkNote(toolName: string, input: Record<string, unknown>): string {
  const host = toolName === "web_fetch" ? fetchHost(input) : undefined;
  if (host === undefined || !isOwnNetworkHost(host)) return "";
  const shown = sanitizeForTerminal(host);
  return `(${shown} is in your own network: web_fetch reaches it only with a rule you write by hand, WebFetch(domain:${shown}) in permissions.allow) `;
}

/** One answer; Esc while the question is open answers null (no), as Ctrl-D does. */
async function askWithEscape(ask: Ask, question: string, keys: readonly string[], signal: AbortSignal | undefined, escape: PermissionPromptOptions["escape"]): Promise<string | null> {
  if (!escape) return ask(question, signal, keys);
  const pressed = new AbortController();
  const stop = escape(() => pressed.abort());
  try {
    return await ask(question, signal ? AbortSignal.any([signal, pressed.signal]) : pressed.signal, keys);
  } finally {
    stop();
  }
}

/** The key of an exact call remembered for the session; none for input too deep to compare (it is asked again). */
function callKeyOf(toolName: string, input: Record<string, unknown>): string | undefined {
  return exceedsDepth(input, MAX_RESULT_DEPTH) ? undefined : `${toolName}\u0000${JSON.stringify(input)}`;
}

/**
 * What "always" covers, in the question: the command prefixes for bash (`'npm test:*', 'git
 * push:*'`), the server for a resource read (`reads from 'github'`), else "this tool".
 */
function alwaysWhat(toolName: string, rules: readonly string[]): string {
  if (toolName === "bash") return rules.map((rule) => `'${sanitizeForTerminal(/^Bash\((.*)\)$/.exec(rule)?.[1] ?? rule)}'`).join(", ");
  const domain = /^WebFetch\(domain:(.*)\)$/.exec(rules[0] ?? "")?.[1];
  if (domain) return `fetches from '${sanitizeForTerminal(domain)}'`;
  const server = /^read_mcp_resource\((.*)\)$/.exec(rules[0] ?? "")?.[1];
  return server ? `reads from '${sanitizeForTerminal(server)}'` : "this tool";
}

/**
 * Shows `lines` a page at a time. Resolves true once all of it was seen (every page, or the whole
 * in $PAGER), false when the user said no or input ended: a yes is only asked for after that.
 */
async function pageThrough(
  lines: string[],
  io: { ask: Ask; print: (line: string) => void; page?: (text: string) => Promise<boolean>; pageLines: number; signal?: AbortSignal },
): Promise<boolean> {
  const pager = io.page ? " / [v]iew all in $PAGER" : "";
  let shown = 0;
  const more = () => {
    for (const line of lines.slice(shown, shown + io.pageLines)) io.print(line);
    shown = Math.min(shown + io.pageLines, lines.length);
  };
  more();
  while (shown < lines.length) {
    const answer = await io.ask(`-- ${shown} of ${lines.length} lines; [Enter] more${pager} / [n]o `, io.signal);
    if (answer === null) return false;
    switch (answer.trim().toLowerCase()) {
      case "":
        more();
        break;
      case "n":
      case "no":
        return false;
      case "v":
        if (io.page && (await io.page(lines.map((line) => Bun.stripANSI(line)).join("\n")))) return true;
        io.print("(the pager could not be started; Enter shows the next page)");
        break;
      default:
        io.print(`(${lines.length - shown} more lines to see before you can allow it: Enter shows the next page${io.page ? ", v all of it in $PAGER" : ""})`);
    }
  }
  return true;
}
