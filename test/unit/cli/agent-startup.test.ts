import { expect, test } from "bun:test";
import { DEFAULT_MODEL } from "../../../src/agent/model-client.ts";
import { DEFAULT_THINKING_BUDGET } from "../../../src/agent/thinking-setting.ts";
import { agentStartup, applySettingsEnv } from "../../../src/cli/agent-startup.ts";
import { CliError } from "../../../src/terminal/cli-error.ts";

test("the model: --model, then CAT_CODE_MODEL, then settings' model, then the default", () => {
  const settings = { model: "from-settings" };
  expect(agentStartup({ flags: { model: "from-flag" }, settings, env: { CAT_CODE_MODEL: "from-env" } }).model).toBe("from-flag");
  expect(agentStartup({ flags: {}, settings, env: { CAT_CODE_MODEL: "from-env" } }).model).toBe("from-env");
  expect(agentStartup({ flags: {}, settings, env: {} }).model).toBe("from-settings");
  expect(agentStartup({ flags: {}, settings: {}, env: {} }).model).toBe(DEFAULT_MODEL);
});

test("settings' env fills the environment before the model is chosen; a variable already set wins", () => {
  const env: Record<string, string | undefined> = { KEEP: "mine" };
  const startup = agentStartup({ flags: {}, settings: { env: { KEEP: "file", CAT_CODE_MODEL: "env-from-settings", NEW_ONE: "x" } }, env });
  expect(env).toEqual({ KEEP: "mine", CAT_CODE_MODEL: "env-from-settings", NEW_ONE: "x" });
  expect(startup.model).toBe("env-from-settings");
  expect(applySettingsEnv({ KEEP: "again", OTHER: "" }, env)).toEqual(["OTHER"]);
});

test("thinking from the flag or settings reaches the agent's options; a misfit is a usage error", () => {
  expect(agentStartup({ flags: { thinking: true }, settings: {}, env: {} }).thinking).toEqual({ budgetTokens: DEFAULT_THINKING_BUDGET });
  expect(agentStartup({ flags: {}, settings: { thinking: { budgetTokens: 4_096 } }, env: {} }).thinking).toEqual({ budgetTokens: 4_096 });
  expect(agentStartup({ flags: { thinking: false }, settings: { thinking: true }, env: {} }).thinking).toBeUndefined();
  const misfit = () => agentStartup({ flags: {}, settings: { model: "claude-sonnet-5-5", thinking: { budgetTokens: 500_000 } }, env: {} });
  expect(misfit).toThrow(CliError);
  expect(misfit).toThrow("thinking: a thinking budget of 500000 tokens leaves no room for claude-sonnet-5-5's answer");
});
