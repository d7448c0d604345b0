import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { compiledBinary, runBinary } from "../../helpers/binary.ts";
import { BUN, REPO, writeConfig } from "../../helpers/paths.ts";

const RESOURCE_SERVER = join(REPO, "fixtures", "resources", "resource-server.ts");
const FILESYSTEM_SERVER = join(REPO, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

let config: string;
beforeAll(async () => {
  await compiledBinary();
  config = writeConfig({ fx: { command: BUN, args: [RESOURCE_SERVER] }, fs: { command: "node", args: [FILESYSTEM_SERVER, REPO] } });
}, 120_000);

const cat = (...args: string[]) => runBinary(["mcp", ...args, "--mcp-config", config]);

describe("cat-code mcp prompts (compiled binary)", () => {
  test("lists name, arguments (required ones marked) and description", async () => {
    const { exitCode, stdout } = await cat("prompts", "fx");
    expect([exitCode, stdout]).toEqual([0, "greet  name*, style  Writes a greeting\n"]);
  });

  test("--json gives each prompt with its server and arguments", async () => {
    const { exitCode, stdout } = await cat("prompts", "fx", "--json");
    expect(JSON.parse(stdout)).toEqual({
      prompts: [
        {
          server: "fx",
          name: "greet",
          title: "Greet someone",
          description: "Writes a greeting",
          arguments: [
            { name: "name", description: "Who to greet", required: true },
            { name: "style", description: "formal or casual", required: false },
          ],
        },
      ],
    });
    expect(exitCode).toBe(0);
  });

  test("a server without prompts: named, exit 2; listing all, skipped with a note", async () => {
    const named = await cat("prompts", "fs");
    expect(named.stderr).toContain("MCP server 'fs' does not offer prompts");
    expect(named.exitCode).toBe(2);
    const all = await cat("prompts");
    expect(all.stderr).toContain("MCP server 'fs' does not offer prompts: skipped");
    expect(all.stdout).toBe("fx: 1 prompt(s)\n  greet  name*, style  Writes a greeting\n");
    expect(all.exitCode).toBe(0);
  });
});

describe("cat-code mcp prompt (compiled binary)", () => {
  test("prints each message as [role] and its text; other blocks as one line", async () => {
    const { exitCode, stdout } = await cat("prompt", "fx", "greet", "name=Ann", "style=formal");
    expect(stdout).toBe("[user]\nWrite a formal greeting for Ann.\n\n[assistant]\nHello, Ann!\n\n[user]\n[image: image/png, 70 B]\n");
    expect(exitCode).toBe(0);
  });

  test("--json prints the whole result", async () => {
    const { exitCode, stdout } = await cat("prompt", "fx", "greet", "name=Ann", "--json");
    const json = JSON.parse(stdout);
    expect(json.description).toBe("A greeting");
    expect(json.messages[0]).toEqual({ role: "user", content: { type: "text", text: "Write a casual greeting for Ann." } });
    expect(exitCode).toBe(0);
  });

  test("a missing required argument: exit 2 listing the prompt's arguments", async () => {
    const { exitCode, stderr, stdout } = await cat("prompt", "fx", "greet", "style=formal");
    expect(stderr).toContain("missing required argument 'name': add name=... (arguments of 'greet': name*, style; * = required)");
    expect([exitCode, stdout]).toEqual([2, ""]);
  });

  test("an unknown argument or prompt: exit 2 with suggestions", async () => {
    const argument = await cat("prompt", "fx", "greet", "nme=Ann");
    expect(argument.stderr).toContain("unknown argument 'nme'. Did you mean: name?");
    expect(argument.exitCode).toBe(2);
    const prompt = await cat("prompt", "fx", "gret", "name=Ann");
    expect(prompt.stderr).toContain("server 'fx': unknown prompt 'gret'. Did you mean: greet? Available prompts: greet.");
    expect(prompt.exitCode).toBe(2);
  });

  test("a server without prompts: exit 2, and a missing prompt name: usage", async () => {
    const fs = await cat("prompt", "fs", "anything");
    expect(fs.stderr).toContain("MCP server 'fs' does not offer prompts");
    expect(fs.exitCode).toBe(2);
    const usage = await cat("prompt", "fx");
    expect(usage.stderr).toContain("usage: cat-code mcp prompt <server> <name>");
    expect(usage.exitCode).toBe(2);
  });
});
