import { createBuiltinTools } from "../agent/builtin-tools.ts";
import { decidePermission } from "../agent/permission-policy.ts";
import type { PermissionRules } from "../agent/permission-rules.ts";
import type { Tool, ToolResult } from "../agent/tool.ts";
import type { CallToolResult, ToolDefinition } from "../mcp/protocol.ts";
import { loadSettings } from "../settings/load-settings.ts";
import { PermissionSettings } from "../settings/permission-settings.ts";

/** The built-in tools for `--builtin`, working in `cwd`, under the rules of the user's and (once trusted) the project's settings. */
export function servedBuiltinsIn(cwd: string): ServedBuiltins {
  const settings = new PermissionSettings(loadSettings({ cwd }), { cwd });
  return new ServedBuiltins(cwd, () => settings.rules());
}

/**
 * cat-code's own tools (`--builtin`: read_file, write_file, edit_file, grep, glob, bash) served under
 * their own names (no `__` in them, so none can be taken for a server's tool). `mcp serve` has no
 * terminal to ask on, so a call runs only when the tool vouches for it (a read inside the project)
 * or an allow rule of the user's settings covers it; a deny rule always holds. A refusal is that
 * call's error result, naming the rule to add.
 */
export class ServedBuiltins {
  private readonly tools: Map<string, Tool>;

  constructor(
    private readonly cwd: string,
    /** Read at every call, so rules saved meanwhile hold at once. */
    private readonly rules: () => PermissionRules,
    tools: Tool[] = createBuiltinTools({ cwd }).filter((tool) => SERVED.has(tool.name)),
  ) {
    this.tools = new Map(tools.map((tool) => [tool.name, tool]));
  }

  definitions(): ToolDefinition[] {
    return [...this.tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as ToolDefinition["inputSchema"],
      annotations: { readOnlyHint: tool.isReadOnly },
    }));
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  async call(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const tool = this.tools.get(name);
    if (!tool) return asCallResult({ content: `Unknown tool: ${name}`, isError: true });
    // The session's own policy, in the default mode: deny rules, read-only commands, allow rules.
    const verdict = await decidePermission({ rules: this.rules, mode: () => "default", cwd: this.cwd }, tool, input);
    if (verdict.decision === "refuse") return asCallResult(verdict.result);
    if (verdict.decision === "ask") return asCallResult({ content: refusalText(name), isError: true });
    return asCallResult(await tool.execute(input, { signal }));
  }
}

/**
 * The tools a client gets: files and commands. The rest of cat-code's own tools serve its own agent
 * (its todo list, its subagents, its servers' start-up) and mean nothing to another client.
 */
const SERVED = new Set(["bash", "read_file", "write_file", "edit_file", "glob", "grep"]);

/** Why a call that needs permission did not run, and what the user can do about it. */
function refusalText(name: string): string {
  const rule = RULE_NAMES[name] ?? name;
  return (
    `Refused: ${name} needs the user's permission for this call, and cat-code mcp serve has no terminal to ask on. ` +
    `The user can allow it with a rule in ~/.cat-code/settings.json, "permissions": {"allow": ["${rule}(…)"]} (e.g. ${EXAMPLES[rule] ?? `"${rule}"`}).`
  );
}

/** The names rules give the built-in tools (Claude Code's syntax). */
const RULE_NAMES: Record<string, string> = { bash: "Bash", read_file: "Read", write_file: "Write", edit_file: "Edit", glob: "Glob", grep: "Grep" };
const EXAMPLES: Record<string, string> = { Bash: '"Bash(npm test:*)"', Read: '"Read(~/notes/**)"', Write: '"Write(docs/**)"', Edit: '"Edit(src/**)"' };

function asCallResult(result: ToolResult): CallToolResult {
  const images = (result.images ?? []).map((image) => ({ type: "image" as const, data: image.data, mimeType: image.mediaType }));
  return { content: [{ type: "text", text: result.content }, ...images], isError: result.isError };
}
