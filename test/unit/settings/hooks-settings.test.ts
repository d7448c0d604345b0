import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSettings } from "../../../src/settings/load-settings.ts";
import { recordProjectTrust } from "../../../src/settings/project-trust.ts";
import { untrustedSettingsWarning } from "../../../src/settings/untrusted-rules.ts";

let home: string;
let cwd: string;
let env: Record<string, string>;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "hooks-home-"));
  cwd = mkdtempSync(join(tmpdir(), "hooks-project-"));
  env = { CAT_CODE_HOME: home };
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

const writeUser = (value: unknown) => writeFileSync(join(home, "settings.json"), JSON.stringify(value));
const writeProject = (value: unknown) => {
  mkdirSync(join(cwd, ".cat-code"), { recursive: true });
  writeFileSync(join(cwd, ".cat-code", "settings.json"), JSON.stringify(value));
};

const USER_HOOKS = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "~/.claude/hooks/check-bash.sh", timeout: 10 }] }] };
const PROJECT_HOOKS = { PreToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "npx prettier --check" }] }], Stop: [{ hooks: [{ type: "command", command: "./ci.sh" }] }] };

test("hooks in Claude Code's shape are read; the user's and the trusted project's add up, event by event", async () => {
  writeUser({ hooks: USER_HOOKS });
  writeProject({ hooks: PROJECT_HOOKS });
  await recordProjectTrust(cwd, [`hooks: ${JSON.stringify(PROJECT_HOOKS)}`], "trusted", env, "projectSettings");
  const loaded = loadSettings({ cwd, env });
  expect(loaded.warnings).toEqual([]);
  expect(loaded.settings.hooks).toEqual({ PreToolUse: [...USER_HOOKS.PreToolUse, ...PROJECT_HOOKS.PreToolUse], Stop: PROJECT_HOOKS.Stop } as never);
});

test("a project's hooks run commands: left out until trusted here, with a warning that says so", () => {
  writeUser({ hooks: USER_HOOKS });
  writeProject({ hooks: PROJECT_HOOKS });
  const loaded = loadSettings({ cwd, env });
  expect(loaded.settings.hooks).toEqual(USER_HOOKS as never);
  expect(loaded.untrustedSettings).toEqual([`hooks: ${JSON.stringify(PROJECT_HOOKS)}`]);
  expect(untrustedSettingsWarning(loaded)).toContain("not yet trusted in this folder (hooks run commands)");
});

test("a malformed hooks value is one warning naming the shape, and no hooks", () => {
  for (const hooks of [{ BeforeTool: [] }, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "prompt", command: "x" }] }] }, { PreToolUse: [{ hooks: [{ type: "command", command: "x", timeout: 0 }] }] }]) {
    writeUser({ hooks });
    const loaded = loadSettings({ cwd, env });
    expect(loaded.settings.hooks).toBeUndefined();
    expect(loaded.warnings).toEqual([expect.stringContaining('"hooks" must be an object of events (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStop, SessionStart, PreCompact, Notification)')]);
  }
});
