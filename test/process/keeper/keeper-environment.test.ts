/**
 * The keeper is long-lived and talks to no model: it gets the command's environment without
 * cat-code's own and other tools' well-known secrets (each server's environment comes with the
 * request, so a server still gets what its entry names).
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { keeperPaths } from "../../../src/keeper/keeper-paths.ts";
import { runBinary } from "../../helpers/binary.ts";
import { ECHO_SERVER, tempDir, uniqueSeconds, writeConfig } from "../../helpers/paths.ts";
import { findProcesses, killAll } from "../../helpers/processes.ts";

const home = tempDir();
const markers: string[] = [];
afterAll(async () => {
  await runBinary(["mcp", "keeper", "stop"], { env: { CAT_CODE_HOME: home } });
  for (const marker of markers) killAll(await findProcesses(marker));
});

test("the keeper's environment holds no API key or token of the command that started it", async () => {
  if (process.platform !== "linux") return; // Read from /proc.
  const config = writeConfig({ echo: { command: ECHO_SERVER } });
  const env = { CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: undefined, ANTHROPIC_API_KEY: "sk-ant-secret", GITHUB_TOKEN: "ghp-secret", PLAIN_SETTING: "kept" };
  const { exitCode, stdout } = await runBinary(["mcp", "call", "echo", "echo", "text=hi", "--mcp-config", config], { env });
  expect({ exitCode, stdout }).toEqual({ exitCode: 0, stdout: "hi\n" });
  const { pid } = JSON.parse(readFileSync(keeperPaths({ CAT_CODE_HOME: home }).info, "utf8")) as { pid: number };
  const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
  expect(environ.filter((line) => line.includes("secret"))).toEqual([]);
  expect(environ).toContain("PLAIN_SETTING=kept");
});

test("a server the keeper starts gets the command's variables named like an object's own (constructor, prototype), as a cold one does", async () => {
  if (process.platform !== "linux") return; // Read from /proc.
  const marker = uniqueSeconds();
  markers.push(marker);
  const config = writeConfig({ echo: { command: ECHO_SERVER, args: [marker] } });
  const env = { CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: undefined, constructor: "c-kept", prototype: "p-kept" };
  const { exitCode, stdout } = await runBinary(["mcp", "call", "echo", "echo", "text=hi", "--mcp-config", config], { env });
  expect({ exitCode, stdout }).toEqual({ exitCode: 0, stdout: "hi\n" });
  // Warm: the server stays, started by the keeper from the launch environment the command sent.
  const [pid] = await findProcesses(marker);
  const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
  expect(environ).toContain("constructor=c-kept");
  expect(environ).toContain("prototype=p-kept");
});
