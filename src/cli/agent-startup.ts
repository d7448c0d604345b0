import { resolveModel } from "../agent/model-client.ts";
import { resolveThinking } from "../agent/thinking-setting.ts";
import { CliError } from "../terminal/cli-error.ts";

type Env = Record<string, string | undefined>;

/** What this file reads of settings.json (src/settings' `Settings`). */
export interface AgentSettings {
  model?: string;
  thinking?: boolean | { budgetTokens: number };
  /** The user file's `env` only: loadSettings leaves a project's out (it could move ANTHROPIC_BASE_URL). */
  env?: Record<string, string>;
}

export interface AgentStartup {
  model: string;
  thinking: { budgetTokens: number } | undefined;
  maxTokens: number | undefined;
}

/**
 * The agent's settings at start, before any server starts: settings' `env` goes into the process
 * environment first (servers inherit it, and `${VAR}` in mcp.json sees it), then the model
 * (--model, CAT_CODE_MODEL, settings' `model`, the default) and thinking (--thinking, settings'
 * `thinking`). A thinking choice the model cannot take is a usage error.
 */
export function agentStartup(options: { flags: { model?: string; thinking?: boolean }; settings: AgentSettings; env?: Env }): AgentStartup {
  const env = options.env ?? process.env;
  applySettingsEnv(options.settings.env ?? {}, env);
  const model = resolveModel(options.flags.model, env, options.settings.model);
  const thinking = resolveThinking({ flag: options.flags.thinking, setting: options.settings.thinking, model });
  if (!thinking.ok) throw CliError.usage(`thinking: ${thinking.error}`);
  return { model, thinking: thinking.thinking, maxTokens: thinking.maxTokens };
}

/**
 * Sets each variable of settings' `env` that the environment does not already have: a variable set
 * for this run (`ANTHROPIC_BASE_URL=… cat-code`) is the nearer word and wins over the file, as
 * CAT_CODE_MODEL wins over settings' `model`. Returns the names it set.
 */
export function applySettingsEnv(settingsEnv: Record<string, string>, env: Env = process.env): string[] {
  const set: string[] = [];
  for (const [name, value] of Object.entries(settingsEnv)) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
