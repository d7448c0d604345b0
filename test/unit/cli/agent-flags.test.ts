import { expect, test } from "bun:test";
import { agentArgs } from "../../../src/cli/agent-command.ts";
import { lastValue, parseFlags, subcommandWord } from "../../../src/cli/agent-flags.ts";
import { splitRules } from "../../../src/system/permission-rule-syntax.ts";

const parse = (args: string[]) => parseFlags(args, agentArgs);

test("the prompt is the word left after the flags, wherever it stands", () => {
  const parsed = parse(["-p", "--model", "claude-x", "fix it", "--max-turns=3"]);
  expect(parsed.positionals).toEqual(["fix it"]);
  expect(parsed.booleans.get("print")).toBe(true);
  expect([lastValue(parsed, "model"), lastValue(parsed, "max-turns")]).toEqual(["claude-x", "3"]);
  expect(parse(["--", "-p is a prompt here"]).positionals).toEqual(["-p is a prompt here"]);
});

test("a value flag without its value is a usage error; --resume alone is the list", () => {
  expect(() => parse(["-p", "hi", "--model"])).toThrow("--model needs a value: --model <name>");
  expect(() => parse(["--model", "-p"])).toThrow("--model needs a value");
  expect(() => parse(["--model="])).toThrow("--model needs a value");
  expect(lastValue(parse(["--resume"]), "resume")).toBe("");
  expect(lastValue(parse(["--resume", "-p"]), "resume")).toBe("");
  expect(lastValue(parse(["-r", "abc"]), "resume")).toBe("abc");
  expect(parse(["-c"]).booleans.get("continue")).toBe(true);
});

test("a first word that names a subcommand is one; a flag's value is not a first word", () => {
  const names = ["mcp"];
  expect(subcommandWord(["mcp", "list"], agentArgs, names)).toBe("mcp");
  expect(subcommandWord(["--verbose", "mcp", "list", "--root"], agentArgs, names)).toBe("mcp");
  expect(subcommandWord(["--model", "mcp", "hello"], agentArgs, names)).toBeUndefined();
  expect(subcommandWord(["mcp is great"], agentArgs, names)).toBeUndefined();
});

test("rules are split on commas and spaces, except inside a rule's parentheses", () => {
  expect(splitRules(["Bash(npm test:*), Read Write", "mcp__github__*,Bash(git log, --oneline)"])).toEqual([
    "Bash(npm test:*)",
    "Read",
    "Write",
    "mcp__github__*",
    "Bash(git log, --oneline)",
  ]);
});
