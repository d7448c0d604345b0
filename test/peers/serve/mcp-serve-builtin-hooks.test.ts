/**
 * `mcp serve --builtin` through the compiled binary and the SDK v1 client: a served call goes the
 * way the agent's calls go, so the user's PreToolUse hooks and `permissions.defaultMode` hold for
 * another client too, even where an allow rule would let the call run.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../../helpers/binary.ts";
import { REPO, tempDir, writeConfig } from "../../helpers/paths.ts";

const BLOCK_RM_RF = join(REPO, "fixtures", "hooks", "block-rm-rf.sh");

let binary: string;
let client: Client | undefined;
beforeAll(async () => {
  binary = await compiledBinary();
}, 120_000);
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A project with a file worth keeping, served with the user's settings as given. */
async function servedProject(userSettings: object) {
  const home = tempDir();
  const project = tempDir();
  writeFileSync(join(home, "settings.json"), JSON.stringify(userSettings));
  writeFileSync(join(project, "precious.txt"), "keep me");
  client = new Client({ name: "builtin-client", version: "1.0.0" });
  const env = { ...(process.env as Record<string, string>), CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: "1" };
  await client.connect(new StdioClientTransport({ command: binary, args: ["mcp", "serve", "--builtin", "--mcp-config", writeConfig({})], env, cwd: project, stderr: "ignore" }));
  return { project, client };
}

const text = (result: object) => ((result as { content: Array<{ text?: string }> }).content ?? []).map((block) => block.text ?? "").join("");

test("a PreToolUse hook that blocks rm -rf holds for a served bash call, even under an allow rule for rm", async () => {
  const { project, client } = await servedProject({
    permissions: { allow: ["Bash(rm:*)", "Bash(echo:*)"] },
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: BLOCK_RM_RF }] }] },
  });
  const blocked = await client.callTool({ name: "bash", arguments: { command: "rm -rf precious.txt" } });
  expect(blocked.isError).toBe(true);
  expect(text(blocked)).toBe("A PreToolUse hook denied bash: Blocked by policy: rm -rf is not allowed in this project; move files to ./trash instead");
  expect(existsSync(join(project, "precious.txt"))).toBe(true);
  // What the hook lets through runs as the rule allows.
  expect(text(await client.callTool({ name: "bash", arguments: { command: "echo still served" } }))).toContain("still served");
}, 60_000);

test("permissions.defaultMode plan refuses a served write that an allow rule covers", async () => {
  const { project, client } = await servedProject({ permissions: { allow: ["Write", "Bash(rm:*)"], defaultMode: "plan" } });
  const write = await client.callTool({ name: "write_file", arguments: { path: "plan.txt", content: "x" } });
  expect(write.isError).toBe(true);
  expect(text(write)).toContain("plan mode");
  const remove = await client.callTool({ name: "bash", arguments: { command: "rm precious.txt" } });
  expect(remove.isError).toBe(true);
  expect(existsSync(join(project, "plan.txt"))).toBe(false);
  expect(existsSync(join(project, "precious.txt"))).toBe(true);
  // Reading is what plan mode is for.
  expect(text(await client.callTool({ name: "read_file", arguments: { path: "precious.txt" } }))).toContain("keep me");
}, 60_000);
