import { createBuiltinTools } from "../agent/builtin-tools.ts";
import { AgentHooks } from "../agent/hooks/agent-hooks.ts";
import { claudeToolName, type HooksConfig } from "../agent/hooks/hook-config.ts";
import { HookRunner } from "../agent/hooks/hook-runner.ts";
import type { PermissionMode } from "../agent/permission-mode.ts";
import { withPolicy } from "../agent/permission-policy.ts";
import type { PermissionRules } from "../agent/permission-rules.ts";
import type { Tool, ToolResult } from "../agent/tool.ts";
import { ToolRegistry } from "../agent/tool-registry.ts";
import { runToolCall } from "../agent/tool-runner.ts";
import type { CallToolResult, ToolDefinition } from "../mcp/protocol.ts";
import { loadSettings } from "../settings/load-settings.ts";
import { PermissionSettings } from "../settings/permission-settings.ts";

/**
 * The built-in tools for `--builtin`, working in `cwd`, under the user's and (once trusted) the
 * project's settings: their rules, hooks and `permissions.defaultMode`. `warn` hears what hooks say
 * for the user (a hook that failed, a systemMessage).
 */
export function servedBuiltinsIn(cwd: string, warn: (line: string) => void = () => {}): ServedBuiltins {
  const loaded = loadSettings({ cwd });
  const settings = new PermissionSettings(loaded, { cwd });
  const served = new ServedBuiltins(cwd, () => settings.rules(), { hooks: loaded.settings.hooks, mode: loaded.settings.permissions.defaultMode });
  served.hooks.onNotice(warn);
  return served;
}

export interface ServedBuiltinsOptions {
  /** settings.json's `hooks` (the user's and the trusted project's); none: no hook runs. */
  hooks?: HooksConfig;
  /** settings.json's `permissions.defaultMode`: plan refuses writes, acceptEdits runs edits inside the project. */
  mode?: PermissionMode;
  /** Overrides the built-in tools (tests). */
  tools?: Tool[];
}

/**
 * cat-code's own tools (`--builtin`: read_file, write_file, edit_file, grep, glob, bash) served under
 * their own names (no `__` in them, so none can be taken for a server's tool). A call goes the way
 * the agent's calls go (tool-runner.ts): PreToolUse hooks, the permission policy in the settings'
 * default mode, PostToolUse hooks. `mcp serve` has no terminal to ask on, so a call that would be
 * asked about does not run; its error result names the rule to add. A deny rule always holds.
 */
export class ServedBuiltins {
  private readonly registry = new ToolRegistry();
  readonly hooks: AgentHooks;

  constructor(
    private readonly cwd: string,
    /** Read at every call, so rules saved meanwhile hold at once. */
    private readonly rules: () => PermissionRules,
    private readonly options: ServedBuiltinsOptions = {},
  ) {
    for (const tool of options.tools ?? createBuiltinTools({ cwd }).filter((tool) => SERVED.has(tool.name))) this.registry.register(tool);
    this.hooks = new AgentHooks(new HookRunner({ config: () => options.hooks ?? {}, cwd }), cwd);
  }

  definitions(): ToolDefinition[] {
    return this.registry.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as ToolDefinition["inputSchema"],
      annotations: { readOnlyHint: tool.isReadOnly },
    }));
  }

  has(name: string): boolean {
    return this.registry.has(name);
  }

  async call(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (!this.registry.has(name)) return asCallResult({ content: `Unknown tool: ${name}`, isError: true });
    // The policy leaves this call to a question nobody can answer here: it is refused, saying why.
    let asked = false;
    const permissions = withPolicy({ rules: this.rules, mode: () => this.options.mode ?? "default", cwd: this.cwd }, async () => ((asked = true), "deny"));
    const result = await runToolCall({ id: "served", name, input }, { registry: this.registry, permissions, signal, hooks: this.hooks });
    return asCallResult(asked ? { content: refusalText(name), isError: true } : result);
  }
}

/**
 * The tools a client gets: files and commands. The rest of cat-code's own tools serve its own agent
 * (its todo list, its subagents, its servers' start-up) and mean nothing to another client.
 */
const SERVED = new Set(["bash", "read_file", "write_file", "edit_file", "glob", "grep"]);

/** Why a call that needs permission did not run, and what the user can do about it. */
function refusalText(name: string): string {
  const rule = claudeToolName(name);
  return (
    `Refused: ${name} needs the user's permission for this call, and cat-code mcp serve has no terminal to ask on. ` +
    `The user can allow it with a rule in ~/.cat-code/settings.json, "permissions": {"allow": ["${rule}(…)"]} (e.g. ${EXAMPLES[rule] ?? `"${rule}"`}).`
  );
}

const EXAMPLES: Record<string, string> = { Bash: '"Bash(npm test:*)"', Read: '"Read(~/notes/**)"', Write: '"Write(docs/**)"', Edit: '"Edit(src/**)"' };

function asCallResult(result: ToolResult): CallToolResult {
  const images = (result.images ?? []).map((image) => ({ type: "image" as const, data: image.data, mimeType: image.mediaType }));
  return { content: [{ type: "text", text: result.content }, ...images], isError: result.isError };
}
