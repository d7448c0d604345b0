import { describe, expect, test } from "bun:test";
import { interactivePermissions, MAX_UNPAGED_LINES } from "../../../src/repl/permission-prompt.ts";
import { permissionView } from "../../../src/repl/permission-view.ts";
import { plainStyle } from "../../../src/repl/tool-call-line.ts";
import { visibleLine } from "../../../src/repl/visible-text.ts";
import type { Tool } from "../../../src/agent/tool.ts";
import { waitFor } from "../../helpers/wait-for.ts";

describe("visibleLine", () => {
  test("long blank runs, control characters, escape sequences and bidi overrides become visible marks", () => {
    expect(visibleLine(`echo ok${" ".repeat(300)}; touch PWNED`)).toBe("echo ok⟨300 spaces⟩; touch PWNED");
    expect(visibleLine(`a${"\t".repeat(20)}b${" \t".repeat(9)}c`)).toBe("a⟨20 tabs⟩b⟨18 blanks⟩c");
    expect(visibleLine("rm -rf /tmp/x\r# harmless")).toBe("rm -rf /tmp/x⟨CR⟩# harmless");
    expect(visibleLine("\u001b[2J\u001b]0;title\u0007")).toBe("⟨ESC⟩[2J⟨ESC⟩]0;title⟨U+0007⟩");
    expect(visibleLine("ls \u202Etxt.exe\u2066\u200b")).toBe("ls ⟨U+202E⟩txt.exe⟨U+2066⟩⟨U+200B⟩");
    // Short runs (indentation) and tabs stay as they are.
    expect(visibleLine("    if x:\tpass")).toBe("    if x:\tpass");
  });
});

describe("permissionView", () => {
  test("an MCP tool's arguments are shown whole, pretty-printed", () => {
    const long = "v".repeat(1_000);
    const lines = permissionView("mcp__fs__write", { kind: "arguments", input: { path: "x", body: long } }, 80, plainStyle);
    expect(lines[0]).toBe("mcp__fs__write wants to run with these arguments:");
    expect(lines.join("").replace(/ {2}/g, "")).toContain(long);
    expect(lines.every((line) => line.length <= 80)).toBe(true);
  });

  test("arguments nested too deeply to print say so instead of crashing the REPL", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    expect(permissionView("mcp__x__y", { kind: "arguments", input: { deep } }, 80, plainStyle)).toEqual([
      "mcp__x__y wants to run with these arguments:",
      "  (the arguments are nested too deeply to show; answer no)",
    ]);
  });

  test("a bash command comes first, every line of it, its description under it as text (not JSON)", () => {
    const lines = permissionView("bash", { kind: "command", command: "set -e\nmake\nmake install", rest: { description: "Build and install" } }, 80, plainStyle);
    expect(lines).toEqual(["bash wants to run this command:", "  set -e", "  make", "  make install", "  ⎿ Build and install"]);
    const timed = permissionView("bash", { kind: "command", command: "make", rest: { description: "Build\u001b[2J", timeout_ms: 5 } }, 80, plainStyle);
    expect(timed).toEqual(["bash wants to run this command:", "  make", "  ⎿ Build⟨ESC⟩[2J", "  with", "  {", '    "timeout_ms": 5', "  }"]);
  });

  test("a long command and its description break after a blank at the width, every character kept", () => {
    const command = "cd src && ls -la | grep -v node_modules && git status --short && rm -rf build";
    const lines = permissionView("bash", { kind: "command", command, rest: { description: "List the sources, show git status and remove the build folder" } }, 60, plainStyle);
    expect(lines).toEqual([
      "bash wants to run this command:",
      "  cd src && ls -la | grep -v node_modules && git status ",
      "  --short && rm -rf build",
      "  ⎿ List the sources, show git status and remove the build ",
      "    folder",
    ]);
    // A word longer than the row is still cut, not lost.
    const long = permissionView("bash", { kind: "command", command: `echo ${"x".repeat(100)}`, rest: {} }, 60, plainStyle);
    expect(long.slice(1).map((line) => line.slice(2)).join("")).toBe(`echo ${"x".repeat(100)}`);
    expect(long.every((line) => Bun.stringWidth(line) <= 60)).toBe(true);
  });
});

describe("the permission gate", () => {
  const tool = { name: "mcp__fs__write", isReadOnly: false } as Tool;

  test("short calls are printed whole, then asked about", async () => {
    const printed: string[] = [];
    const questions: string[] = [];
    const gate = interactivePermissions(async (question) => (questions.push(question), "y"), { print: (line) => printed.push(line) });
    expect(await gate({ tool, input: { path: "x" } })).toBe("allow");
    expect(printed).toEqual(["mcp__fs__write wants to run with these arguments:", "  {", '    "path": "x"', "  }"]);
    expect(questions).toEqual(["Allow mcp__fs__write? [y]es / [n]o / [a]lways for this tool in this project / [A] in all projects / [s] yes for this session "]);
  });

  test("a long call is paged, and yes is not taken until the last page was shown", async () => {
    const input = { lines: Array.from({ length: MAX_UNPAGED_LINES + 50 }, (_, i) => `item ${i}`) };
    const printed: string[] = [];
    const answers = ["y", "a", "", "", "", "", "", "y"];
    const questions: string[] = [];
    const gate = interactivePermissions(async (question) => (questions.push(question), answers.shift() ?? null), {
      print: (line) => printed.push(line),
      rows: 52,
    });
    expect(await gate({ tool, input })).toBe("allow");
    expect(printed.filter((line) => line.includes('"item ')).length).toBe(MAX_UNPAGED_LINES + 50);
    expect(printed.filter((line) => line.includes("more lines to see before you can allow it"))).toHaveLength(2);
    expect(questions.at(-1)).toBe("Allow mcp__fs__write? [y]es / [n]o / [a]lways for this tool in this project / [A] in all projects / [s] yes for this session ");
    // A header, the braces and brackets, then one line per item.
    expect(questions[0]).toBe(`-- 50 of ${MAX_UNPAGED_LINES + 55} lines; [Enter] more / [n]o `);
  });

  test("the model's resource read shows server and URI whole; 'always' covers reads from that server only", async () => {
    const read = { name: "read_mcp_resource", isReadOnly: true } as Tool;
    const uri = `docs://x?${"q".repeat(300)}`;
    const printed: string[] = [];
    const questions: string[] = [];
    const answers = ["a", "n"];
    const gate = interactivePermissions(async (question) => (questions.push(question), answers.shift() ?? null), { print: (line) => printed.push(line) });
    expect(await gate({ tool: read, input: { server: "docs", uri } })).toBe("allow");
    // Wrapped at the width, never cut.
    expect(printed.map((line) => line.trim()).join("")).toContain(`"server": "docs","uri": "${uri}"`);
    expect(questions).toEqual(["Allow read_mcp_resource? [y]es / [n]o / [a]lways for reads from 'docs' in this project / [A] in all projects / [s] yes for this session "]);
    // Remembered for this session: the next read from docs runs unasked, one from another server asks.
    expect(await gate({ tool: read, input: { server: "docs", uri: "docs://y" } })).toBe("allow");
    expect(await gate({ tool: read, input: { server: "other", uri: "o://y" } })).toBe("stop");
    expect(questions).toHaveLength(2);
  });

  test("behind a wrapper, 'always' is offered for the command it runs, never the wrapper; none when what runs is hidden", async () => {
    const bash = { name: "bash", isReadOnly: false } as Tool;
    const questions: string[] = [];
    const printed: string[] = [];
    const gate = interactivePermissions(async (question) => (questions.push(question), "y"), { print: (line) => printed.push(line) });
    for (const command of ["timeout 60 npm test", 'timeout 5 bash -c "rm -rf x"', "sudo ls", "nice -n 5 python3 -c 'x'"]) await gate({ tool: bash, input: { command } });
    expect(questions).toEqual([
      "Allow bash? [y]es / [n]o / [a]lways for 'npm test:*' in this project / [A] in all projects / [s] yes for this session ",
      "Allow bash? [y]es / [n]o / [s] yes for this session ",
      "Allow bash? [y]es / [n]o / [s] yes for this session ",
      "Allow bash? [y]es / [n]o / [s] yes for this session ",
    ]);
    expect(questions.join("")).not.toContain("timeout");
  });

  test("a fetch of localhost or a private address offers no rule (a, A or s) and says it takes one written by hand", async () => {
    const fetch = { name: "web_fetch", isReadOnly: true } as Tool;
    const questions: string[] = [];
    const offered: (readonly string[] | undefined)[] = [];
    const forSession: (readonly string[])[] = [];
    const saved: string[] = [];
    const answers = ["a", "s", "s", "a"];
    const gate = interactivePermissions(async (question, _signal, keys) => (questions.push(question), offered.push(keys), answers.shift() ?? null), {
      print: () => {},
      allowForSession: (rules) => forSession.push(rules),
      saveRule: async (rule) => (saved.push(rule), "settings.json"),
    });
    await gate({ tool: fetch, input: { url: "http://127.0.0.1:8080/admin" } });
    await gate({ tool: fetch, input: { url: "http://localhost/" } });
    expect(questions).toEqual([
      "Allow web_fetch? [y]es / [n]o / [s] yes for this session (127.0.0.1 is in your own network: web_fetch reaches it only with a rule you write by hand, WebFetch(domain:127.0.0.1) in permissions.allow) ",
      "Allow web_fetch? [y]es / [n]o / [s] yes for this session (127.0.0.1 is in your own network: web_fetch reaches it only with a rule you write by hand, WebFetch(domain:127.0.0.1) in permissions.allow) ",
      "Allow web_fetch? [y]es / [n]o / [s] yes for this session (localhost is in your own network: web_fetch reaches it only with a rule you write by hand, WebFetch(domain:localhost) in permissions.allow) ",
    ]);
    expect(offered[0]).toEqual(["y", "n", "s"]);
    // A public host is offered its rule, and "always" saves it.
    await gate({ tool: fetch, input: { url: "https://docs.python.org/3/" } });
    expect(questions.at(-1)).toBe("Allow web_fetch? [y]es / [n]o / [a]lways for fetches from 'docs.python.org' in this project / [A] in all projects / [s] yes for this session ");
    expect(saved).toEqual(["WebFetch(domain:docs.python.org)"]);
    expect(forSession).toEqual([]);
  });

  test("no while paging, or the end of input, declines", async () => {
    const input = { lines: Array.from({ length: MAX_UNPAGED_LINES + 1 }, (_, i) => i) };
    const print = () => {};
    expect(await interactivePermissions(async () => "n", { print })({ tool, input })).toBe("stop");
    expect(await interactivePermissions(async () => null, { print })({ tool, input })).toBe("stop");
  });
});

describe("answers: single keys, this session, one rule per part, Esc", () => {
  const bash = { name: "bash", isReadOnly: false } as Tool;

  test("the keys that answer at once are offered to the reader; without a rule, no a/A", async () => {
    const offered: (readonly string[] | undefined)[] = [];
    const gate = interactivePermissions(async (_question, _signal, keys) => (offered.push(keys), "y"), { print: () => {} });
    await gate({ tool: bash, input: { command: "npm test" } });
    await gate({ tool: bash, input: { command: "echo $(date) > x" } });
    expect(offered).toEqual([["y", "n", "a", "A", "s"], ["y", "n", "s"]]);
  });

  test("s: yes, and the same rule is allowed until exit, through the session's rules; a call no rule covers is remembered exactly", async () => {
    const session: string[] = [];
    const printed: string[] = [];
    const questions: string[] = [];
    const gate = interactivePermissions(async (question) => (questions.push(question), "s"), { print: (line) => printed.push(line), allowForSession: (rules) => session.push(...rules) });
    expect(await gate({ tool: bash, input: { command: "npm test -- a" } })).toBe("allow");
    expect(session).toEqual(["Bash(npm test:*)"]);
    expect(printed.at(-1)).toBe("Allowed until cat-code exits: Bash(npm test:*)");
    // Without a saver of its own, the gate keeps them: the next matching call is not asked.
    const own = interactivePermissions(async (question) => (questions.push(question), "s"), { print: () => {} });
    await own({ tool: bash, input: { command: "npm test" } });
    await own({ tool: bash, input: { command: "echo $(date) > x" } });
    const asked = questions.length;
    expect(await own({ tool: bash, input: { command: "npm test -- --watch" } })).toBe("allow");
    expect(await own({ tool: bash, input: { command: "echo $(date) > x" } })).toBe("allow");
    expect(questions).toHaveLength(asked);
  });

  test("a compound command: 'always' offers one rule per part that is not read-only, and saves each", async () => {
    const saved: string[] = [];
    const questions: string[] = [];
    const gate = interactivePermissions(async (question) => (questions.push(question), "a"), {
      print: () => {},
      cwd: process.cwd(),
      saveRule: async (rule) => (saved.push(rule), "settings.json"),
    });
    expect(await gate({ tool: bash, input: { command: "ls && npm test && git push origin main | cat" } })).toBe("allow");
    expect(questions[0]).toContain("[a]lways for 'npm test:*', 'git push:*' in this project");
    expect(saved).toEqual(["Bash(npm test:*)", "Bash(git push:*)"]);
  });

  test("at a narrow terminal the question wraps between words: its first rows printed, the last one asked", async () => {
    const printed: string[] = [];
    const questions: string[] = [];
    const gate = interactivePermissions(async (question) => (questions.push(question), "y"), { print: (line) => printed.push(line), columns: () => 60, cwd: process.cwd() });
    expect(await gate({ tool: bash, input: { command: "cd src && rm -rf build" } })).toBe("allow");
    expect(printed.slice(-2)).toEqual(["Allow bash? [y]es / [n]o / [a]lways for 'cd:*', 'rm:*' in", "this project / [A] in all projects / [s] yes for this"]);
    expect(questions).toEqual(["session "]);
  });

  test("Esc while the question is open answers no: the turn stops", async () => {
    let press: (() => void) | undefined;
    const gate = interactivePermissions(
      (_question, signal) => new Promise((resolve) => signal?.addEventListener("abort", () => resolve(null))),
      { print: () => {}, escape: (listener) => ((press = listener), () => (press = undefined)) },
    );
    const decision = gate({ tool: bash, input: { command: "rm x" } });
    (await waitFor(() => press, "the question to listen for Esc"))();
    expect(await decision).toBe("stop");
  });
});
