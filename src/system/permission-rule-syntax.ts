import { splitCommand } from "./bash-command-parts.ts";
import { namesOnlyWrapper } from "./command-wrappers.ts";

/**
 * The grammar of permission rules, Claude Code's: `Bash`, `Bash(npm test:*)`, `Bash(git status)`,
 * `Read(src/**)`, `Edit(docs/**)`, `Write`, `Glob`, `Grep`, `mcp__github`, `mcp__github__*`,
 * `mcp__github__create_issue`, `read_mcp_resource(github)`. Text in, data out, nothing else:
 * settings.json's loader checks rules with it, and src/agent/permission-rules.ts decides calls with
 * what it returns.
 */
export type ParsedRule =
  /** Every call of these tools. */
  | { kind: "tool"; text: string; tools: readonly string[] }
  /** bash commands: exactly these words, or (prefix) starting with them. */
  | { kind: "bash"; text: string; words: readonly string[]; prefix: boolean }
  /** Calls of these tools on a path the pattern matches (gitignore-like, see src/agent/path-rule.ts). */
  | { kind: "path"; text: string; tools: readonly string[]; pattern: string }
  /**
   * MCP tools: every tool of a server (`tool` absent), or one tool. A whole-server rule also covers
   * the model's resource reads from that server (read_mcp_resource sends the URI to it).
   */
  | { kind: "mcp"; text: string; server: string; tool?: string }
  /** `read_mcp_resource(<server>)`: the model's resource reads from this one server (its name as configured). */
  | { kind: "resource"; text: string; server: string }
  /**
   * `WebFetch(domain:example.com)`: web_fetch from this host (lower case), or from any host under it
   * (`domain:*.example.com`). Only a rule naming an address or `localhost` exactly lets web_fetch
   * reach a private address.
   */
  | { kind: "domain"; text: string; domain: string };

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
  WebFetch: ["web_fetch"],
  web_fetch: ["web_fetch"],
  TodoWrite: ["todo_write"],
  todo_write: ["todo_write"],
  list_mcp_resources: ["list_mcp_resources"],
  read_mcp_resource: ["read_mcp_resource"],
};
const PATH_TOOLS = new Set(["Read", "Edit", "Write", "Glob", "Grep", "read_file", "edit_file", "write_file", "glob", "grep"]);
const KNOWN = "Bash, Read, Edit, Write, Glob, Grep, WebFetch, TodoWrite, read_mcp_resource or mcp__<server>[__<tool>]";

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
  if (name === "read_mcp_resource") return { ok: true, rule: { kind: "resource", text, server: specifier.trim() } };
  if (tools.includes("web_fetch")) return parseDomainRule(text, specifier, fail);
  if (!PATH_TOOLS.has(name)) return fail(`${name} takes no (…)`);
  return { ok: true, rule: { kind: "path", text, tools, pattern: specifier.trim() } };
}

/** `domain:example.com`, `domain:*.example.com`, `domain:127.0.0.1`, `domain:[::1]`: a host name, not a URL. */
function parseDomainRule(text: string, specifier: string, fail: (error: string) => { ok: false; error: string }) {
  const domain = /^domain:(.+)$/.exec(specifier.trim())?.[1]?.trim().toLowerCase();
  if (!domain) return fail("write WebFetch(domain:example.com)");
  if (!/^(\*\.)?[a-z0-9_.-]+$|^\[[0-9a-f:.]+\]$/.test(domain)) return fail("the domain is a host name such as example.com or *.example.com, without scheme, port or path");
  return { ok: true as const, rule: { kind: "domain" as const, text, domain } };
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


/**
 * Why an allow rule allows nothing, if it names only a command that runs others (`Bash(timeout:*)`,
 * `Bash(sudo:*)`, `Bash(python3:*)`): as an allow rule it would cover whatever runs behind it, so it
 * is not honoured (see COMMAND_WRAPPERS). As a deny rule it holds.
 */
export function wrapperOnlyProblem(rule: ParsedRule): string | undefined {
  if (rule.kind !== "bash" || !namesOnlyWrapper(rule.words)) return undefined;
  return `${JSON.stringify(rule.text)} names only ${rule.words.join(" ")}, which runs another command, so as an allow rule it allows nothing; name the command it runs instead (Bash(npm test:*) also allows \`timeout 60 npm test\`)`;
}

/**
 * `--allowedTools "Bash(npm test:*),Read"` and a command file's `allowed-tools`: rules separated by commas or spaces, except inside a
 * rule's parentheses, where both may be part of the pattern.
 */
export function splitRules(values: readonly string[]): string[] {
  const rules: string[] = [];
  for (const value of values) {
    let depth = 0;
    let current = "";
    for (const char of value) {
      if (char === "(") depth++;
      if (char === ")") depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === "," || /\s/.test(char))) {
        if (current) rules.push(current);
        current = "";
        continue;
      }
      current += char;
    }
    if (current) rules.push(current);
  }
  return rules;
}
