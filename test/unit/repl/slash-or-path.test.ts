import { expect, test } from "bun:test";
import { isSlashCommand } from "../../../src/repl/slash-or-path.ts";

const builtins = ["help", "mcp", "exit"];
const exists = (path: string) => ["/tmp", "/help"].includes(path);

test("a first word with another / is a path: the line is a prompt", () => {
  expect(isSlashCommand("/usr/bin/ls fails", builtins, exists)).toBe(false);
  expect(isSlashCommand("/etc/hosts: what is in it?", builtins, exists)).toBe(false);
});

test("a first word naming something that exists is a path, unless it is a built-in command", () => {
  expect(isSlashCommand("/tmp is full", builtins, exists)).toBe(false);
  expect(isSlashCommand("/help", builtins, exists)).toBe(true);
});

test("commands, unknown commands, prompts of servers and / alone are commands", () => {
  expect(isSlashCommand("/mcp tools", builtins, exists)).toBe(true);
  expect(isSlashCommand("/nope", builtins, exists)).toBe(true);
  expect(isSlashCommand("/mcp__everything__simple-prompt a=1", builtins, exists)).toBe(true);
  expect(isSlashCommand("/", builtins, exists)).toBe(true);
  expect(isSlashCommand("no slash", builtins, exists)).toBe(false);
});
