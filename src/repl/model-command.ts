import { KNOWN_MODELS, modelInfo } from "../agent/models.ts";
import { alignColumns, sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { AgentRuntime } from "./agent-runtime.ts";

/** An id as the API spells them (`claude-sonnet-5-5`, `claude-haiku-4-5-20251001`, a gateway's `vendor/model@v1`). */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,127}$/;

/**
 * `/model`: the current model and the known ones; `/model <id>` switches for the next request. Any
 * id is accepted (a new model, a gateway's name), with a note when cat-code does not know it.
 */
export function modelCommand(args: string, runtime: AgentRuntime): string {
  if (args === "") return modelListText(runtime.model);
  if (!MODEL_ID.test(args)) return `Not a model id: '${sanitizeForTerminal(args)}'. /model lists the known ones; /model <id> switches.`;
  const refused = runtime.switchModel(args);
  if (refused) return `Still ${sanitizeForTerminal(runtime.model)}: ${refused}`;
  const info = modelInfo(args);
  if (info) return `Model: ${args} (${info.name}), from the next request.`;
  return `Model: ${args}, from the next request. cat-code does not know this model (no price for /cost, no context window for compaction); the API will say if it does not exist.`;
}

function modelListText(current: string): string {
  const info = modelInfo(current);
  const rows = KNOWN_MODELS.map((model) => [
    model.id === info?.id ? `* ${model.id}` : `  ${model.id}`,
    model.name,
    `${formatTokens(model.contextWindow)} context`,
    `$${model.prices.input}/$${model.prices.output} per MTok in/out`,
  ]);
  return [
    `Model: ${sanitizeForTerminal(current)}${info ? ` (${info.name})` : " (not a model cat-code knows)"}`,
    "Known models (/model <id> switches from the next request; any id is accepted):",
    ...alignColumns(rows).map((line) => `  ${line}`),
  ].join("\n");
}

function formatTokens(tokens: number): string {
  return tokens >= 1_000_000 ? `${tokens / 1_000_000}M` : `${Math.round(tokens / 1_000)}K`;
}
