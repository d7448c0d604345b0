import { splitCommand, type CommandPart } from "../system/bash-command-parts.ts";
import { wrappedCommand, wrapperOf } from "../system/command-wrappers.ts";
import { isOwnNetworkHost } from "../system/network-address.ts";
import { fetchHost } from "./permission-rules.ts";

/** Built-in tools whose Claude Code name covers exactly that tool; others are named as they are. */
const RULE_NAMES: Record<string, string> = { write_file: "Write", glob: "Glob", grep: "Grep", todo_write: "TodoWrite" };

/**
 * Commands whose second word (or third, after `run`) says what they do: `npm test`, `npm run build`.
 * Only these: for any other command the second word is an argument (`touch MADE`), and a rule
 * naming it would be both too narrow to be useful and misleading in the question.
 */
const WITH_SUBCOMMANDS = new Set(["git", "npm", "pnpm", "yarn", "bun", "npx", "bunx", "deno", "cargo", "go", "docker", "kubectl", "gh", "make", "pip", "uv", "poetry", "dotnet", "mvn", "gradle", "terraform", "helm", "brew", "apt", "systemctl"]);
const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9_:-]*$/;
const RUN_VERBS = new Set(["run", "exec", "run-script"]);

/**
 * The rule an "always" answer saves: for bash, the prefix of the command that runs (`npm test --
 * --watch` → `Bash(npm test:*)`, and behind a wrapper the same: `timeout 60 npm test` → `Bash(npm
 * test:*)`, never `Bash(timeout:*)`); for a resource read, reads from that server; for any other
 * tool, the tool. Undefined when bash's command is not one plain command (`a && b`, `$(…)`, a
 * redirection) or what it runs cannot be read (`sudo …`, `bash -c …`): a prefix rule would never
 * match it (see permission-rules.ts), so "always" is not offered.
 */
export function suggestedRule(toolName: string, input: Record<string, unknown>): string | undefined {
  if (toolName === "read_mcp_resource") return resourceRule(input.server);
  if (toolName === "web_fetch") return domainRule(input);
  if (toolName !== "bash") return RULE_NAMES[toolName] ?? toolName;
  if (typeof input.command !== "string") return undefined;
  const split = splitCommand(input.command);
  const part = split.ok && split.parts.length === 1 ? split.parts[0] : undefined;
  return part && partRule(part);
}

/**
 * The rules "always" saves for a command line of several parts (`npm test && git push`): one per
 * part that is not read-only (a read-only part needs none, see read-only-commands.ts), each as
 * suggestedRule makes it. Undefined when some part can have no rule, or the line cannot be read.
 */
export async function suggestedBashRules(command: string, isReadOnly: (part: CommandPart) => Promise<boolean>): Promise<string[] | undefined> {
  const split = splitCommand(command);
  if (!split.ok || split.parts.length === 0) return undefined;
  const rules: string[] = [];
  for (const part of split.parts) {
    if (await isReadOnly(part)) continue;
    const rule = partRule(part);
    if (rule === undefined) return undefined;
    if (!rules.includes(rule)) rules.push(rule);
  }
  return rules.length > 0 ? rules : undefined;
}

/** The prefix rule of one simple command; undefined when it cannot have one (see suggestedRule). */
function partRule(part: CommandPart): string | undefined {
  if (part.assignments.length > 0) return undefined;
  const run = wrappedCommand(part.words.map((w) => w.text));
  if (run.kind === "hidden" || part.words.slice(0, run.start).some((w) => !w.literal)) return undefined;
  const words = part.words.slice(run.start);
  if (!words[0]?.literal) return undefined;
  const prefix = [words[0].text];
  const second = words[1];
  if (WITH_SUBCOMMANDS.has(prefix[0] as string) && second?.literal && SUBCOMMAND.test(second.text)) {
    prefix.push(second.text);
    const third = words[2];
    if (RUN_VERBS.has(second.text) && third?.literal && /^[A-Za-z0-9][\w:.-]*$/.test(third.text)) prefix.push(third.text);
  } else if (wrapperOf(prefix[0] as string)?.kind === "runner") {
    // A runner's rule names what it runs (`Bash(python3 manage.py:*)`); an option first: no rule.
    if (!second?.literal || second.text.startsWith("-")) return undefined;
    prefix.push(second.text);
  }
  // A word with a space, a quote or a parenthesis cannot be written back into a rule plainly.
  if (prefix.some((word) => !/^[\w./:@+=,-]+$/.test(word))) return undefined;
  return `Bash(${prefix.join(" ")}:*)`;
}

/**
 * Reads from the one server asked about (`read_mcp_resource(github)`), not from every server: "always"
 * for one server must not let the model send URIs to another. None for a name a rule cannot hold.
 */
function resourceRule(server: unknown): string | undefined {
  return typeof server === "string" && /^[^()\s]+$/.test(server) ? `read_mcp_resource(${server})` : undefined;
}

/**
 * Fetches from the one host asked about, as Claude Code writes it: `WebFetch(domain:example.com)`.
 * None for `localhost` or a private address: such a rule opens the user's own network (see
 * guarded-fetch.ts), which takes a rule the user writes by hand, never one keypress.
 */
function domainRule(input: Record<string, unknown>): string | undefined {
  const host = fetchHost(input);
  if (!host || !/^[a-z0-9_.-]+$|^\[[0-9a-f:.]+\]$/.test(host) || isOwnNetworkHost(host)) return undefined;
  return `WebFetch(domain:${host})`;
}

