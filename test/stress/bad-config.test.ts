/**
 * Bad config at the CLI: each broken entry gets its promised message in `mcp list` while a good
 * server beside it still connects; a broken file is one warning with line and column, never a stack,
 * and the servers of the other file still connect.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBinary, type RunResult } from "../helpers/binary.ts";
import { ECHO_SERVER, tempDir, writeConfig } from "../helpers/paths.ts";

const BAD_ENTRIES: [what: string, name: string, entry: unknown, message: string][] = [
  ["an entry with both command and url", "both", { command: ECHO_SERVER, url: "http://127.0.0.1:1/mcp" }, 'the entry has both "command" and "url"'],
  ["an unknown type", "pigeon", { type: "carrier-pigeon", command: ECHO_SERVER }, 'unknown "type" "carrier-pigeon": use "stdio" or "http"'],
  ["an empty command", "empty", { command: "" }, '"command" is empty'],
  ["args that are not strings", "numargs", { command: ECHO_SERVER, args: [1] }, 'every item of "args" must be a string'],
  ["env values that are not strings", "numenv", { command: ECHO_SERVER, env: { A: 1 } }, 'every value of "env" must be a string'],
  ["${UNSET} without a default", "unset", { command: ECHO_SERVER, args: ["${CAT_CODE_TEST_NEVER_SET}"] }, '"args[0]": environment variable CAT_CODE_TEST_NEVER_SET is not set'],
  ["a name that sanitizes to nothing", "!!!", { command: ECHO_SERVER }, 'the name "!!!" has no letters or digits'],
];

describe("a bad entry fails alone, with its message, while the good server beside it connects", () => {
  let result: RunResult;
  let lines: string[];
  beforeAll(async () => {
    const servers: Record<string, unknown> = { good: { command: ECHO_SERVER } };
    for (const [, name, entry] of BAD_ENTRIES) servers[name] = entry;
    result = await runBinary(["mcp", "list", "--mcp-config", writeConfig(servers)]);
    lines = result.stdout.trimEnd().split("\n");
  });

  for (const [what, name, , message] of BAD_ENTRIES) {
    test(what, () => {
      expect(result.exitCode).toBe(0);
      expect(lines[0]).toMatch(/^good\s+CONNECTED\s+1 tool\(s\)/);
      const line = lines.find((l) => l.startsWith(`${name} `));
      expect(line).toMatch(new RegExp(`^${name.replace(/[!$]/g, "\\$&")}\\s+INVALID\\s+`));
      expect(line).toContain(message);
      expect(result.stderr).not.toContain("    at ");
    });
  }
});

const BAD_FILES: [what: string, text: string, warning: string][] = [
  ["a file that is not JSON", '{"mcpServers": {"a": {"command": "x",}}}', "is not valid JSON: a property name in double quotes was expected at line 1, column 38"],
  ["JSON that is not an object", "[1, 2]", 'the top level must be an object like {"mcpServers": {...}}'],
  ["mcpServers that is not an object", '{"mcpServers": ["echo"]}', '"mcpServers" must be an object of named entries'],
];

describe("a broken project .mcp.json is one warning naming it; the user's servers still connect", () => {
  for (const [what, text, warning] of BAD_FILES) {
    test(what, async () => {
      const home = tempDir();
      writeConfig({ good: { command: ECHO_SERVER } }, home);
      const project = tempDir();
      writeFileSync(join(project, ".mcp.json"), text);
      const { exitCode, stdout, stderr } = await runBinary(["mcp", "list"], { cwd: project, env: { CAT_CODE_HOME: home } });
      expect(exitCode).toBe(0);
      expect(stdout).toMatch(/^good\s+CONNECTED\s+1 tool\(s\)/);
      const warnings = stderr.split("\n").filter((l) => l.includes(".mcp.json"));
      expect(warnings.length).toBe(1);
      expect(warnings[0]).toContain(join(project, ".mcp.json"));
      expect(warnings[0]).toContain(warning);
      expect(stderr).not.toContain("    at ");
    });
  }
});
