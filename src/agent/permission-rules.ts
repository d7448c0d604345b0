import { denyView, splitCommand, type CommandPart } from "./bash-command-parts.ts";
import { pathRuleMatches, resolvePathPattern } from "./path-rule.ts";
import type { PermissionGate } from "./permission.ts";

/**
 * Permission rules in Claude Code's syntax: `Bash`, `Bash(npm test:*)`, `Bash(git status)`,
 * `Read(src/**)`, `Edit(docs/**)`, `Write`, `Glob`, `Grep`, `mcp__github`, `mcp__github__*`,
 * `mcp__github__create_issue`. A deny rule wins over any allow rule.
 */
export interface PermissionRules {
  allow: readonly string[];
  deny: readonly string[];
}

export type ParsedRule =
  /** Every call of these tools. */
  | { kind: "tool"; text: string; tools: readonly string[] }
  /** bash commands: exactly these words, or (prefix) starting with them. */
  | { kind: "bash"; text: string; words: readonly string[]; prefix: boolean }
  /** Calls of these tools on a path the pattern matches (gitignore-like, see path-rule.ts). */
  | { kind: "path"; text: string; tools: readonly string[]; pattern: string }
  /** MCP tools: every tool of a server (`tool` absent), or one tool. */
  | { kind: "mcp"; text: string; server: string; tool?: string };

/** Claude Code's tool names, and ours, for the built-in tools each covers. */
const TOOL_NAMES: Record<string, readonly string[]> = {
  Bash: ["bash"],
  Read: ["read_file", "glob", "grep"],
  Edit: ["edit_file", "write_file"],
  Write: ["write_file"],
  Glob: ["glob"],
  Grep: ["grep"],
  bash: ["bash"],
  read_file: ["read_file"],
  edit_file: ["edit_file"],
  write_file: ["write_file"],
  glob: ["glob"],
  grep: ["grep"],
  list_mcp_resources: ["list_mcp_resources"],
  read_mcp_resource: ["read_mcp_resource"],
};
const PATH_TOOLS = new Set(["Read", "Edit", "Write", "Glob", "Grep", "read_file", "edit_file", "write_file", "glob", "grep"]);
const KNOWN = "Bash, Read, Edit, Write, Glob, Grep or mcp__<server>[__<tool>]";

export function parseRule(text: string): { ok: true; rule: ParsedRule } | { ok: false; error: string } {
  const fail = (error: string) => ({ ok: false as const, error: `${JSON.stringify(text)}: ${error}` });
  const match = /^([A-Za-z0-9_*-]+)(?:\((.*)\))?$/s.exec(text.trim());
  if (!match) return fail(`not a rule; write Tool or Tool(specifier), e.g. Bash(npm test:*)`);
  const [, name = "", specifier] = match;
  if (name.startsWith("mcp__")) {
    if (specifier !== undefined) return fail("an MCP rule takes no (…): name the server (mcp__github) or the tool (mcp__github__create_issue)");
    const rest = name.slice("mcp__".length);
    const split = rest.indexOf("__");
    if (rest === "" || split === 0) return fail("name the server: mcp__<server> or mcp__<server>__<tool>");
    if (split < 0) return { ok: true, rule: { kind: "mcp", text, server: rest } };
    const tool = rest.slice(split + 2);
    if (tool === "" || tool === "*") return { ok: true, rule: { kind: "mcp", text, server: rest.slice(0, split) } };
    if (tool.includes("*")) return fail("a * is only allowed as the whole tool part (mcp__github__*)");
    return { ok: true, rule: { kind: "mcp", text, server: rest.slice(0, split), tool } };
  }
  const tools = TOOL_NAMES[name];
  if (!tools) return fail(`unknown tool '${name}'; use ${KNOWN}`);
  if (specifier === undefined || specifier.trim() === "*") return { ok: true, rule: { kind: "tool", text, tools } };
  if (specifier.trim() === "") return fail("the (…) is empty; leave it out to cover every call");
  if (tools.includes("bash")) return parseBashRule(text, specifier, fail);
  if (!PATH_TOOLS.has(name)) return fail(`${name} takes no (…)`);
  return { ok: true, rule: { kind: "path", text, tools, pattern: specifier.trim() } };
}

function parseBashRule(text: string, specifier: string, fail: (error: string) => { ok: false; error: string }) {
  const trimmed = specifier.trim();
  const prefix = trimmed.endsWith(":*") || trimmed.endsWith(" *");
  const body = prefix ? trimmed.slice(0, -2).trim() : trimmed;
  if (body.includes("*")) return fail("a * is only allowed at the end, as in Bash(npm test:*)");
  const split = splitCommand(body);
  const part = split.ok && split.parts.length === 1 ? split.parts[0] : undefined;
  if (!part || part.assignments.length > 0 || part.words.length === 0 || part.words.some((w) => !w.literal)) {
    return fail("a Bash rule names one plain command (no ;, &&, |, $, quotes around operators or redirections)");
  }
  return { ok: true as const, rule: { kind: "bash" as const, text, words: part.words.map((w) => w.text), prefix } };
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

/** The decision the rules make about one call: deny wins; undefined when no rule speaks. */
export function ruleDecision(rules: PermissionRules, toolName: string, input: Record<string, unknown>, cwd: string): "allow" | "deny" | undefined {
  if (denyingRule(rules, toolName, input, cwd) !== undefined) return "deny";
  return allows(parsedRules(rules.allow), toolName, input, cwd) ? "allow" : undefined;
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
  return wrapped;
}

function denies(rule: ParsedRule, toolName: string, input: Record<string, unknown>, cwd: string): boolean {
  switch (rule.kind) {
    case "tool":
      return rule.tools.includes(toolName);
    case "mcp":
      return mcpMatches(rule, toolName);
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
  if (rules.some((rule) => rule.kind === "mcp" && mcpMatches(rule, toolName))) return true;
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
  const bashRules = rules.filter((rule): rule is Extract<ParsedRule, { kind: "bash" }> => rule.kind === "bash");
  if (bashRules.length === 0) return false;
  const split = splitCommand(command);
  if (!split.ok || split.parts.length === 0) return false;
  return split.parts.every((part) => partAllowed(part, bashRules));
}

function partAllowed(part: CommandPart, rules: Extract<ParsedRule, { kind: "bash" }>[]): boolean {
  if (part.assignments.length > 0) return false;
  return rules.some((rule) => {
    // The words the rule names must be the words bash runs, not a `$VAR` that only looks like them.
    const named = part.words.slice(0, rule.words.length);
    return named.every((w) => w.literal) && wordsMatch(rule, part.words.map((w) => w.text));
  });
}

function wordsMatch(rule: { words: readonly string[]; prefix: boolean }, words: readonly string[]): boolean {
  if (rule.prefix ? words.length < rule.words.length : words.length !== rule.words.length) return false;
  return rule.words.every((word, i) => words[i] === word);
}

function mcpMatches(rule: Extract<ParsedRule, { kind: "mcp" }>, toolName: string): boolean {
  return rule.tool === undefined ? toolName.startsWith(`mcp__${rule.server}__`) : toolName === `mcp__${rule.server}__${rule.tool}`;
}

/** The path a call works on: a file, or the folder glob and grep search (the project when not given). */
function pathOf(toolName: string, input: Record<string, unknown>): string | undefined {
  if (typeof input.path === "string") return input.path;
  return toolName === "glob" || toolName === "grep" ? "." : undefined;
}
