import { denyView, splitCommand, type CommandPart } from "../system/bash-command-parts.ts";
import { namesOnlyWrapper, wrappedCommand } from "../system/command-wrappers.ts";
import { sanitizeNamePart } from "../system/name-part.ts";
import { parseRule, type ParsedRule } from "../system/permission-rule-syntax.ts";
import { pathRuleMatches, resolvePathPattern } from "./path-rule.ts";
import type { PermissionGate } from "./permission.ts";

export { parseRule, type ParsedRule };

/**
 * Permission rules in Claude Code's syntax: `Bash`, `Bash(npm test:*)`, `Bash(git status)`,
 * `Read(src/**)`, `Edit(docs/**)`, `Write`, `Glob`, `Grep`, `mcp__github`, `mcp__github__*`,
 * `mcp__github__create_issue`. A deny rule wins over any allow rule. The model's resource reads
 * (read_mcp_resource) send the URI to a server: `mcp__github` and `mcp__github__*` cover reads from
 * github as well as its tools, `read_mcp_resource(github)` only the reads, `read_mcp_resource` reads
 * from every server.
 */
export interface PermissionRules {
  allow: readonly string[];
  deny: readonly string[];
  /** Calls these match are asked about even when an allow rule, a mode or the read-only list would let them run. */
  ask?: readonly string[];
}

const parsedCache = new Map<string, ParsedRule | null>();

/** Rules that do not parse are left out here; loading the settings warns about them. */
function parsedRules(texts: readonly string[]): ParsedRule[] {
  return texts.flatMap((text) => {
    let parsed = parsedCache.get(text);
    if (parsed === undefined) {
      const result = parseRule(text);
      parsed = result.ok ? result.rule : null;
      if (parsedCache.size > 10_000) parsedCache.clear();
      parsedCache.set(text, parsed);
    }
    return parsed ? [parsed] : [];
  });
}

/** The decision the rules make about one call: deny wins, then ask (no decision: the user is asked); undefined when no rule speaks. */
export function ruleDecision(rules: PermissionRules, toolName: string, input: Record<string, unknown>, cwd: string): "allow" | "deny" | undefined {
  if (denyingRule(rules, toolName, input, cwd) !== undefined) return "deny";
  if (askingRule(rules, toolName, input, cwd) !== undefined) return undefined;
  return allows(parsedRules(rules.allow), toolName, input, cwd) ? "allow" : undefined;
}

/**
 * The first ask rule that matches the call (its text). It matches as a deny rule does, every command
 * the line could run: `Bash(git push:*)` in ask holds for `git status && git push` too.
 */
export function askingRule(rules: PermissionRules, toolName: string, input: Record<string, unknown>, cwd: string): string | undefined {
  return parsedRules(rules.ask ?? []).find((rule) => denies(rule, toolName, input, cwd))?.text;
}

/** The first deny rule that matches the call (its text), for the message the model gets. */
export function denyingRule(rules: PermissionRules, toolName: string, input: Record<string, unknown>, cwd: string): string | undefined {
  return parsedRules(rules.deny).find((rule) => denies(rule, toolName, input, cwd))?.text;
}

/**
 * A gate that applies the rules first: a call a deny rule matches is declined without asking, one
 * the allow rules cover runs; any other goes to `gate`. `rules` is read at every call, so rules saved
 * while the REPL runs hold at once. The deny rules also hold for calls that need no permission
 * (see PermissionGate.deniedBy). Gates nest: print mode's --allowedTools wrap the settings' rules.
 */
export function withRules(rules: () => PermissionRules, gate: PermissionGate, cwd: string): PermissionGate {
  const wrapped: PermissionGate = async (request) => {
    const decision = ruleDecision(rules(), request.tool.name, request.input, cwd);
    if (decision !== undefined) return decision;
    return gate(request);
  };
  wrapped.deniedBy = (toolName, input) => denyingRule(rules(), toolName, input, cwd) ?? gate.deniedBy?.(toolName, input);
  wrapped.allowedBy = (toolName, input) => allowingRules(rules(), toolName, input, cwd).concat(gate.allowedBy?.(toolName, input) ?? []);
  return wrapped;
}

/** The allow rules (their text) that each cover the call by themselves; a compound bash line is covered by none alone. */
export function allowingRules(rules: PermissionRules, toolName: string, input: Record<string, unknown>, cwd: string): string[] {
  return parsedRules(rules.allow)
    .filter((rule) => allows([rule], toolName, input, cwd))
    .map((rule) => rule.text);
}

function denies(rule: ParsedRule, toolName: string, input: Record<string, unknown>, cwd: string): boolean {
  switch (rule.kind) {
    case "tool":
      return rule.tools.includes(toolName);
    case "mcp":
    case "resource":
      return mcpMatches(rule, toolName, input);
    case "domain":
      return domainMatches(rule, toolName, input);
    case "path":
      return rule.tools.includes(toolName) && pathRuleMatches(resolvePathPattern(rule.pattern, cwd), pathOf(toolName, input), cwd, "any");
    case "bash": {
      if (toolName !== "bash" || typeof input.command !== "string") return false;
      // Every command the line could run, however it hides it: one that matches is enough.
      return denyView(input.command).some((words) => wordsMatch(rule, words));
    }
  }
}

function allows(rules: ParsedRule[], toolName: string, input: Record<string, unknown>, cwd: string): boolean {
  if (rules.some((rule) => rule.kind === "tool" && rule.tools.includes(toolName))) return true;
  if (rules.some((rule) => (rule.kind === "mcp" || rule.kind === "resource") && mcpMatches(rule, toolName, input))) return true;
  if (rules.some((rule) => rule.kind === "domain" && domainMatches(rule, toolName, input))) return true;
  if (toolName === "bash") return bashAllowed(rules, input.command);
  const path = pathOf(toolName, input);
  return rules.some((rule) => rule.kind === "path" && rule.tools.includes(toolName) && pathRuleMatches(resolvePathPattern(rule.pattern, cwd), path, cwd, "all"));
}

/**
 * A command line is allowed only when every simple command in it is, each by some rule, and the
 * line holds nothing the split cannot read (see splitCommand). Assignments in front (`PATH=. npm
 * test`, `NODE_OPTIONS=--require=x npm test`) change what runs, so a part with any is not allowed.
 */
function bashAllowed(rules: ParsedRule[], command: unknown): boolean {
  if (typeof command !== "string") return false;
  // A rule naming only a wrapper (`Bash(timeout:*)`, `Bash(python3:*)`) would allow whatever runs behind it.
  const bashRules = rules.filter((rule): rule is BashRule => rule.kind === "bash" && !namesOnlyWrapper(rule.words));
  if (bashRules.length === 0) return false;
  const split = splitCommand(command);
  if (!split.ok || split.parts.length === 0) return false;
  return split.parts.every((part) => partAllowed(part, bashRules));
}

type BashRule = Extract<ParsedRule, { kind: "bash" }>;

/**
 * Whether the allow rules cover one simple command of a line on their own: the policy lets a line run
 * whose every part is either covered so or read-only (`ls && npm test` with `Bash(npm test:*)`).
 */
export function partAllowedByRules(rules: PermissionRules, part: CommandPart): boolean {
  const bashRules = parsedRules(rules.allow).filter((rule): rule is BashRule => rule.kind === "bash" && !namesOnlyWrapper(rule.words));
  return bashRules.length > 0 && partAllowed(part, bashRules);
}

/**
 * A part is matched as the command it runs, behind its wrappers (`timeout 60 npm test` is `npm
 * test`, see COMMAND_WRAPPERS); one whose command cannot be read (`sudo …`, `bash -c …`) is not
 * allowed by any rule.
 */
function partAllowed(part: CommandPart, rules: BashRule[]): boolean {
  if (part.assignments.length > 0) return false;
  const run = wrappedCommand(part.words.map((w) => w.text));
  if (run.kind === "hidden") return false;
  // `timeout $T npm test`: an unquoted variable may split into words that change what runs.
  if (part.words.slice(0, run.start).some((w) => !w.literal)) return false;
  const words = part.words.slice(run.start);
  if (words.length === 0) return false;
  return rules.some((rule) => {
    // Words a wrapper appends (xargs) are not in the line: only a prefix rule can cover them.
    if (run.appends && !rule.prefix) return false;
    // The words the rule names must be the words bash runs, not a `$VAR` that only looks like them.
    const named = words.slice(0, rule.words.length);
    return named.every((w) => w.literal) && wordsMatch(rule, words.map((w) => w.text));
  });
}

function wordsMatch(rule: { words: readonly string[]; prefix: boolean }, words: readonly string[]): boolean {
  if (rule.prefix ? words.length < rule.words.length : words.length !== rule.words.length) return false;
  return rule.words.every((word, i) => words[i] === word);
}

/** The host web_fetch would fetch from, as the URL parser reads it (lower case, numeric forms made dotted); undefined for no URL. */
export function fetchHost(input: Record<string, unknown>): string | undefined {
  if (typeof input.url !== "string") return undefined;
  try {
    return new URL(input.url).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

function domainMatches(rule: Extract<ParsedRule, { kind: "domain" }>, toolName: string, input: Record<string, unknown>): boolean {
  const host = toolName === "web_fetch" ? fetchHost(input) : undefined;
  if (host === undefined) return false;
  if (rule.domain.startsWith("*.")) return host.endsWith(rule.domain.slice(1));
  return host === rule.domain;
}

/** The model's resource reads: a call names its server in `server` as configured; an mcp__ rule names it sanitized, as tool names do. */
const READ_RESOURCE = "read_mcp_resource";

function mcpMatches(rule: Extract<ParsedRule, { kind: "mcp" | "resource" }>, toolName: string, input: Record<string, unknown>): boolean {
  if (toolName === READ_RESOURCE) {
    if (typeof input.server !== "string") return false;
    if (rule.kind === "resource") return input.server === rule.server;
    return rule.tool === undefined && sanitizeNamePart(input.server) === rule.server;
  }
  if (rule.kind === "resource") return false;
  return rule.tool === undefined ? toolName.startsWith(`mcp__${rule.server}__`) : toolName === `mcp__${rule.server}__${rule.tool}`;
}

/** The path a call works on: a file, or the folder glob and grep search (the project when not given). */
function pathOf(toolName: string, input: Record<string, unknown>): string | undefined {
  if (typeof input.path === "string") return input.path;
  return toolName === "glob" || toolName === "grep" ? "." : undefined;
}
