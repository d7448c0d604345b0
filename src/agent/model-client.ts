import Anthropic from "@anthropic-ai/sdk";
import { log } from "../log.ts";

/**
 * The model when neither --model, CAT_CODE_MODEL nor settings' `model` names one: the newest Sonnet the installed SDK
 * lists (claude-sonnet-4-5 is on the SDK's deprecation list).
 */
export const DEFAULT_MODEL = "claude-sonnet-5-5";

type Env = Record<string, string | undefined>;

/** --model, then CAT_CODE_MODEL, then settings' `model`, then the default: the nearest word wins. */
export function resolveModel(flag: string | undefined, env: Env = process.env, setting?: string): string {
  return flag?.trim() || env.CAT_CODE_MODEL?.trim() || setting?.trim() || DEFAULT_MODEL;
}

/**
 * True when the SDK will find credentials the way cat-code documents them. Without this check the
 * SDK would go looking for profiles on disk and fail on the first request with a less clear message.
 */
export function hasCredentials(env: Env = process.env): boolean {
  return Boolean(env.ANTHROPIC_API_KEY?.trim() || env.ANTHROPIC_AUTH_TOKEN?.trim());
}

export interface ModelClientOptions {
  /** Tests pass these; otherwise the SDK reads the environment. */
  apiKey?: string;
  baseURL?: string;
  timeoutMs?: number;
}

/**
 * A Messages API client that reads ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN and ANTHROPIC_BASE_URL
 * as the SDK always does. Its own retries are off: the agent loop retries, and says so.
 * The SDK logs to stdout by default, which would mix with answers; ours goes to stderr.
 */
export function createModelClient(options: ModelClientOptions = {}): Anthropic {
  return new Anthropic({
    maxRetries: 0,
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
    logger: {
      debug: (message, ...rest) => log.debug(message, ...rest),
      info: (message, ...rest) => log.debug(message, ...rest),
      warn: (message, ...rest) => log.warn(message, ...rest),
      error: (message, ...rest) => log.error(message, ...rest),
    },
  });
}
