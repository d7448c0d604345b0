import { CliError } from "../../terminal/cli-error.ts";

/** `--json '<object>'`: parsed before anything is sent. */
export function parseJsonArguments(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw CliError.usage(`--json is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw CliError.usage(`--json must be a JSON object like '{"text":"hi"}', not ${Array.isArray(value) ? "an array" : JSON.stringify(value)}`);
  }
  return value as Record<string, unknown>;
}
