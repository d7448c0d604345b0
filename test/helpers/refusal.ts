import { ConfigError } from "../../src/config/config-error.ts";

/** The ConfigError a promise rejects with; any other outcome fails the test. */
export async function refusal(promise: Promise<unknown>): Promise<ConfigError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}
