import { describe, expect, test } from "bun:test";
import { parseArgs, type ArgsDef } from "citty";
import { quickParse } from "../../../src/cli/quick-flags.ts";
import call from "../../../src/cli/mcp/call-command.ts";
import list from "../../../src/cli/mcp/list-command.ts";
import tools from "../../../src/cli/mcp/tools-command.ts";

/** The commands `mcp …` runs without citty's parse when their line is plain (mcp-command.ts). */
const COMMANDS = { call, tools, list } as const;

/** Lines quickParse takes: it must give what citty gives, key for key. */
const PLAIN: Record<keyof typeof COMMANDS, string[][]> = {
  call: [
    [],
    ["echo"],
    ["echo", "echo", "text=hi", "n=-1"],
    ["echo", "echo", "--json", '{"text":"hi"}'],
    ["echo", "echo", '--json={"a":1,"b":"=x"}'],
    ["echo", "echo", "--json="],
    ["echo", "echo", "--json", ""],
    ["--stdio", "node server.js --flag", "--keep-alive", "600", "echo", "message=hi"],
    ["echo", "echo", "--no-keeper", "--raw"],
    ["echo", "--no-browser", "echo", "--login", "--verbose"],
    ["--mcp-config", "c.json", "echo", "echo", "--timeout=500", "--root", "/tmp", "a=1", "b=2"],
    ["echo", "echo", "--elicitation", "accept-defaults"],
    ["--url", "http://127.0.0.1:1/mcp?y=1&z=2", "echo"],
    ["echo", "echo", "--keeper", "--no-raw"],
  ],
  tools: [[], ["echo"], ["--json", "--schema", "echo"], ["--stdio", "node s.js", "--keep-alive", "600"], ["echo", "--no-keeper", "--login", "--no-browser", "--timeout=5"]],
  list: [[], ["--json"], ["--stdio", "node s.js", "--keep-alive", "600", "--no-keeper"], ["--mcp-config", "c.json", "--root=/tmp", "--verbose", "--no-json"]],
};

/** Lines it leaves to citty (an answer of its own would risk differing). */
const NOT_PLAIN: string[][] = [
  ["echo", "echo", "--jsn", "x"],
  ["echo", "echo", "-x"],
  ["-h"],
  ["echo", "echo", "--", "a=1"],
  ["echo", "echo", "--timeout"],
  ["echo", "echo", "--timeout", "-1"],
  ["echo", "echo", "--timeout=-1"],
  ["--raw", "--raw"],
  ["--root", "a", "--root", "b"],
  ["--no-keeper", "--keeper"],
  ["--raw=true"],
  ["--no-timeout", "x"],
  ["--keepAlive", "5"],
  ["--constructor", "x"],
  ["echo", "-"],
  ["--verbose=1"],
];

/** Every key the definition names, and the positionals. */
function view(args: Record<string, unknown>, def: ArgsDef): Record<string, unknown> {
  return Object.fromEntries(["_", ...Object.keys(def)].map((key) => [key, args[key]]));
}

describe.each(Object.keys(COMMANDS) as Array<keyof typeof COMMANDS>)("mcp %s", (name) => {
  const def = COMMANDS[name].args as ArgsDef;

  test("a plain line gives what citty's parse gives", () => {
    for (const line of PLAIN[name]) {
      const quick = quickParse(line, def);
      expect(quick, JSON.stringify(line)).toBeDefined();
      expect(view(quick!, def)).toEqual(view(parseArgs(line, def), def));
    }
  });

  test("any other line is left to citty", () => {
    for (const line of NOT_PLAIN) expect(quickParse(line, def), JSON.stringify(line)).toBeUndefined();
  });
});

test("a boolean given a value, or a flag of another command, is left to citty", () => {
  expect(quickParse(["--json=x"], tools.args as ArgsDef)).toBeUndefined();
  expect(quickParse(["--schema"], call.args as ArgsDef)).toBeUndefined();
  expect(quickParse(["echo", "--raw"], list.args as ArgsDef)).toBeUndefined();
});

test("a required positional left out is left to citty (its error names it)", () => {
  const def = { server: { type: "positional" }, raw: { type: "boolean" } } as const satisfies ArgsDef;
  expect(quickParse(["--raw"], def)).toBeUndefined();
  expect(() => parseArgs(["--raw"], def)).toThrow("Missing required positional argument: SERVER");
  expect(quickParse(["echo"], def)).toMatchObject({ server: "echo", _: ["echo"] });
});
