import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isWellKnownSecret } from "../../../src/system/own-secrets.ts";
import { runBinary, type RunResult } from "../../helpers/binary.ts";
import { BUN, ECHO_SERVER, SDK_STDIO_SERVER, tempDir } from "../../helpers/paths.ts";

/** This machine's own well-known secret variables (AWS_*, …) left out, so `mcp get` reads the same everywhere. */
const WITHOUT_MACHINE_SECRETS = Object.fromEntries(Object.keys(process.env).filter(isWellKnownSecret).map((name) => [name, undefined]));

/** A fresh CAT_CODE_HOME and a fresh project folder; the CLI runs in the project folder. */
function workspace() {
  const home = tempDir("cat-code-home-");
  const project = tempDir("cat-code-project-");
  const userFile = join(home, "mcp.json");
  const projectFile = join(project, ".mcp.json");
  const cli = (...args: string[]): Promise<RunResult> =>
    runBinary(["mcp", ...args], { cwd: project, env: { CAT_CODE_HOME: home, ...WITHOUT_MACHINE_SECRETS } });
  const write = (path: string, servers: Record<string, unknown>) => writeFileSync(path, JSON.stringify({ mcpServers: servers }, null, 2));
  const entries = (path: string) => JSON.parse(readFileSync(path, "utf8")).mcpServers;
  return { home, project, userFile, projectFile, cli, write, entries };
}

/** A stdio entry that leaves a marker file behind if it is ever started. */
function trap(dir: string) {
  const marker = join(dir, `started-${Math.random().toString(36).slice(2)}`);
  return { marker, entry: { command: "bash", args: ["-c", `touch ${marker}; exec ${ECHO_SERVER}`] } };
}

describe("cat-code mcp add", () => {
  test("stdio: repeated -e, --cwd, --timeout, and the server's own flags after -- are written as given", async () => {
    const w = workspace();
    const { exitCode, stdout } = await w.cli("add", "fs", "-e", "A=1", "--env", "B=two=2", "--timeout", "5000", "--cwd", "/tmp", "--", "npx", "-y", "@x/server", "--port", "3");
    expect(exitCode).toBe(0);
    expect(stdout).toBe(`Added stdio server 'fs' to ${w.userFile} (user scope)\n`);
    expect(w.entries(w.userFile)).toEqual({
      fs: { type: "stdio", command: "npx", args: ["-y", "@x/server", "--port", "3"], env: { A: "1", B: "two=2" }, cwd: "/tmp", timeout: 5000 },
    });
    // The user file may carry tokens: it is created readable by its owner only.
    expect(statSync(w.userFile).mode & 0o777).toBe(0o600);
  });

  test("http: repeated -H, written with type http", async () => {
    const w = workspace();
    const { exitCode } = await w.cli("add", "--transport", "http", "api", "https://example.com/mcp", "-H", "Authorization: Bearer abc", "-H", "X-Team:cats");
    expect(exitCode).toBe(0);
    expect(w.entries(w.userFile)).toEqual({
      api: { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer abc", "X-Team": "cats" } },
    });
  });

  test("add-json writes the entry as given", async () => {
    const w = workspace();
    const entry = { command: ECHO_SERVER, env: { TOKEN: "${TOKEN:-x}" }, excludeTools: ["nothing"] };
    const { exitCode } = await w.cli("add-json", "echo", JSON.stringify(entry));
    expect(exitCode).toBe(0);
    expect(w.entries(w.userFile)).toEqual({ echo: entry });
  });

  test("the added server works: mcp list shows it in the user format of old, mcp call reaches it", async () => {
    const w = workspace();
    await w.cli("add", "echo", "--", ECHO_SERVER);
    const list = await w.cli("list");
    expect(list.stdout).toBe(`echo  CONNECTED  1 tool(s)  (stdio: ${ECHO_SERVER})\n`);
    const call = await w.cli("call", "echo", "echo", "text=hi");
    expect([call.exitCode, call.stdout]).toEqual([0, "hi\n"]);
  });

  test("an existing file keeps every other byte: add, then remove, gives it back exactly", async () => {
    const w = workspace();
    const original = '{\n    "theme":  "dark",\n    "mcpServers": {\n        "keep": { "command": "k",  "args": ["--x"] }\n    },\n    "trailing": [1, 2]\n}\n';
    writeFileSync(w.userFile, original);
    await w.cli("add", "echo", "-e", "K=V", "--", ECHO_SERVER);
    const added = readFileSync(w.userFile, "utf8");
    expect(added).toStartWith('{\n    "theme":  "dark",\n    "mcpServers": {\n        "keep": { "command": "k",  "args": ["--x"] },\n        "echo": {\n            "type": "stdio",');
    expect(added).toEndWith('        }\n    },\n    "trailing": [1, 2]\n}\n');
    const removed = await w.cli("remove", "echo");
    expect(removed.stdout).toBe(`Removed 'echo' from ${w.userFile} (user scope)\n`);
    expect(readFileSync(w.userFile, "utf8")).toBe(original);
  });

  const refusals: [string, string[], string][] = [
    ["a name with a space", ["add", "my server", "--", "x"], "invalid server name"],
    ["a name with a slash", ["add-json", "a/b", '{"command":"x"}'], "invalid server name"],
    ["a name that exists in the scope", ["add", "keep", "--", "x"], "a server named 'keep' already exists in"],
    ["no command", ["add", "a"], "a stdio server needs a command after --"],
    ["no name", ["add"], "usage: cat-code mcp add <name>"],
    ["a mistyped flag", ["add", "a", "--evn", "A=1", "--", "x"], "unknown option '--evn'"],
    ["a server's flag before --", ["add", "a", "npx", "-y", "pkg"], "A server's own options go after --"],
    ["-e without =", ["add", "a", "-e", "NOVALUE", "--", "x"], "-e expects KEY=VALUE, got 'NOVALUE'"],
    ["-e given the same key twice", ["add", "a", "-e", "A=1", "-e", "A=2", "--", "x"], "-e A is given twice"],
    ["-H without a colon", ["add", "-t", "http", "a", "http://h/mcp", "-H", "Bearer x"], "-H expects 'Key: Value'"],
    ["-H on a stdio server", ["add", "a", "-H", "K: V", "--", "x"], "-H is for http servers"],
    ["-e on an http server", ["add", "-t", "http", "a", "http://h/mcp", "-e", "A=1"], "-e and --cwd are for stdio servers"],
    ["an http server without a url", ["add", "-t", "http", "a"], "an http server takes one url"],
    ["a url that is not a URL", ["add", "-t", "http", "a", "not-a-url"], '"url" is not a valid URL'],
    ["the deprecated sse transport", ["add", "-t", "sse", "a", "http://h/sse"], "HTTP+SSE transport is not supported"],
    ["a timeout that is not a number", ["add", "a", "--timeout", "soon", "--", "x"], "--timeout must be a whole number"],
    ["an unknown scope", ["add", "a", "--scope", "local", "--", "x"], "--scope must be user or project, not 'local'"],
    ["add-json with JSON that does not parse", ["add-json", "a", "{command:"], "the entry is not valid JSON"],
    ["add-json with an array", ["add-json", "a", "[1]"], "the entry must be a JSON object"],
    ["add-json with command and url", ["add-json", "a", '{"command":"x","url":"http://h"}'], 'both "command" and "url"'],
    ["add-json with an empty command", ["add-json", "a", '{"command":""}'], '"command" is empty'],
    ["add-json with args that are not strings", ["add-json", "a", '{"command":"x","args":[1]}'], '"args" must be a string'],
  ];
  for (const [what, args, message] of refusals) {
    test(`${what}: exit 2, the reason, and no file changed`, async () => {
      const w = workspace();
      const original = '{"mcpServers": {"keep": {"command": "k"}}}';
      writeFileSync(w.userFile, original);
      const { exitCode, stderr, stdout } = await w.cli(...args);
      expect(exitCode).toBe(2);
      expect(stderr).toContain(message);
      expect(stderr).not.toContain("    at ");
      expect(stdout).toBe("");
      expect(readFileSync(w.userFile, "utf8")).toBe(original);
      expect(readdirSync(w.home)).toEqual(["mcp.json"]);
      expect(readdirSync(w.project)).toEqual([]);
    });
  }

  test("a refused project entry creates neither .mcp.json nor an approval", async () => {
    const w = workspace();
    const { exitCode } = await w.cli("add-json", "bad", '{"command":""}', "--scope", "project");
    expect(exitCode).toBe(2);
    expect(existsSync(w.projectFile)).toBe(false);
    expect(readdirSync(w.home)).toEqual([]);
  });

  test("a corrupt config is refused with its line and column, and left as it is", async () => {
    const w = workspace();
    writeFileSync(w.userFile, '{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n}');
    const { exitCode, stderr } = await w.cli("add", "b", "--", "y");
    expect(exitCode).toBe(2);
    expect(stderr).toContain(`${w.userFile}: not valid JSON: a property name in double quotes was expected at line 3, column 26`);
    expect(readFileSync(w.userFile, "utf8")).toContain('"x",}');
  });

  test("ten adds from ten processes at once lose no entry", async () => {
    const w = workspace();
    const names = [...Array.from({ length: 5 }, (_, i) => `first${i}`), ...Array.from({ length: 5 }, (_, i) => `second${i}`)];
    const results = await Promise.all(names.map((name) => w.cli("add", name, "-e", `N=${name}`, "--", ECHO_SERVER)));
    expect(results.map((r) => r.exitCode)).toEqual(names.map(() => 0));
    const written = w.entries(w.userFile);
    expect(Object.keys(written).sort()).toEqual([...names].sort());
    for (const name of names) expect(written[name].env).toEqual({ N: name });
    // No lock or temporary file is left behind.
    expect(readdirSync(w.home)).toEqual(["mcp.json"]);
  });
});

describe("cat-code mcp get", () => {
  test("shows the entry with env values masked, its scope and file, and its live state", async () => {
    const w = workspace();
    w.write(w.userFile, { echo: { command: ECHO_SERVER, env: { SECRET_TOKEN: "hunter2-env" }, timeout: 5000 } });
    const { exitCode, stdout, stderr } = await w.cli("get", "echo");
    expect(exitCode).toBe(0);
    expect(stdout.split("\n")).toEqual([
      "echo",
      "  scope:    user",
      `  file:     ${w.userFile}`,
      `  command:  ${ECHO_SERVER}`,
      "  env:      SECRET_TOKEN=***",
      "  timeout:  5000",
      "  status:   CONNECTED  1 tool(s)",
      "  server:   echo-server.sh 1.0.0  (protocol 2025-06-18 (handshake))",
      "  tools:    echo",
      "",
    ]);
    expect(stdout + stderr).not.toContain("hunter2");
  });

  test("--json carries the masked entry and the status; neither get nor list --json shows a secret", async () => {
    const w = workspace();
    w.write(w.userFile, {
      echo: { command: ECHO_SERVER, env: { SECRET_TOKEN: "hunter2-env" } },
      api: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer hunter2-header" }, timeout: 2000 },
    });
    const echo = JSON.parse((await w.cli("get", "echo", "--json")).stdout);
    expect(echo).toMatchObject({ name: "echo", scope: "user", file: w.userFile, entry: { env: { SECRET_TOKEN: "***" } }, status: { state: "connected", toolCount: 1 } });
    const api = await w.cli("get", "api");
    expect(api.stdout).toContain("  headers:  Authorization: ***");
    expect(api.stdout).toContain("  status:   FAILED  cannot reach http://127.0.0.1:9/mcp");
    const apiJson = JSON.parse((await w.cli("get", "api", "--json")).stdout);
    expect(apiJson.entry.headers).toEqual({ Authorization: "***" });
    expect(apiJson.status).toMatchObject({ state: "failed", reason: expect.stringContaining("cannot reach") });
    const list = await w.cli("list", "--json");
    expect(JSON.parse(list.stdout).servers.map((s: { name: string }) => s.name)).toEqual(["echo", "api"]);
    for (const out of [JSON.stringify(echo), api.stdout, JSON.stringify(apiJson), list.stdout, list.stderr]) expect(out).not.toContain("hunter2");
  });

  test("a failed server shows the reason and its stderr", async () => {
    const w = workspace();
    w.write(w.userFile, { broken: { command: "bash", args: ["-c", "echo something went wrong >&2; exit 7"] } });
    const { exitCode, stdout } = await w.cli("get", "broken");
    expect(exitCode).toBe(0);
    expect(stdout).toContain("  status:   FAILED  ");
    expect(stdout).toContain("exited with code 7");
    expect(stdout).toContain("something went wrong");
  });

  test("an unknown name is exit 2 with the names that exist", async () => {
    const w = workspace();
    w.write(w.userFile, { echo: { command: ECHO_SERVER } });
    const { exitCode, stderr } = await w.cli("get", "ecko");
    expect(exitCode).toBe(2);
    expect(stderr).toContain("unknown server 'ecko'. Did you mean: echo?");
  });
});

describe("cat-code mcp remove", () => {
  test("a name that does not exist is exit 2 with the names that do, and nothing changes", async () => {
    const w = workspace();
    w.write(w.userFile, { echo: { command: ECHO_SERVER } });
    w.write(w.projectFile, { fs: { command: "x" } });
    const before = [readFileSync(w.userFile, "utf8"), readFileSync(w.projectFile, "utf8")];
    const { exitCode, stderr } = await w.cli("remove", "ech");
    expect(exitCode).toBe(2);
    expect(stderr).toContain("unknown server 'ech'. Did you mean: echo? Available servers: fs, echo.");
    expect([readFileSync(w.userFile, "utf8"), readFileSync(w.projectFile, "utf8")]).toEqual(before);
  });

  test("a name in both scopes needs --scope; with it, only that scope's entry goes", async () => {
    const w = workspace();
    w.write(w.userFile, { echo: { command: ECHO_SERVER } });
    w.write(w.projectFile, { echo: { command: ECHO_SERVER }, other: { command: "x" } });
    const ambiguous = await w.cli("remove", "echo");
    expect(ambiguous.exitCode).toBe(2);
    expect(ambiguous.stderr).toContain("say which with --scope project or --scope user");
    const removed = await w.cli("remove", "echo", "--scope", "project");
    expect(removed.exitCode).toBe(0);
    expect(Object.keys(w.entries(w.projectFile))).toEqual(["other"]);
    expect(Object.keys(w.entries(w.userFile))).toEqual(["echo"]);
    const missing = await w.cli("remove", "echo", "-s", "project");
    expect(missing.exitCode).toBe(2);
  });
});

describe("project scope (.mcp.json)", () => {
  test("an unapproved project server is listed as NEEDS-APPROVAL and nothing is started", async () => {
    const w = workspace();
    const { marker, entry } = trap(w.home);
    w.write(w.projectFile, { trap: entry });
    const list = await w.cli("list");
    // What it would run follows, whole, with values as written.
    expect([list.exitCode, list.stdout]).toEqual([0, `trap  NEEDS-APPROVAL  (project: .mcp.json)\n    command:  bash -c '${entry.args[1]}'\n`]);
    expect(list.stderr).toContain("cat-code mcp approve trap");
    const tools = await w.cli("tools");
    expect(tools.stdout).toBe("");
    expect(tools.stderr).toContain(`MCP server 'trap' of ${w.projectFile} is not approved yet (cat-code mcp approve trap)`);
    const call = await w.cli("call", "trap", "echo", "text=hi");
    expect(call.exitCode).toBe(2);
    expect(call.stderr).toContain(`server 'trap' comes from ${w.projectFile} and is not approved yet`);
    const get = await w.cli("get", "trap");
    expect(get.stdout).toContain("  status:   NEEDS-APPROVAL  not started; to allow it: cat-code mcp approve trap");
    const json = JSON.parse((await w.cli("list", "--json")).stdout);
    expect(json.servers[0]).toMatchObject({ name: "trap", scope: "project", state: "needs-approval" });
    // No wait needed: a started trap touches the marker before its handshake, and every command
    // above has exited (its servers' groups ended) by now.
    expect(existsSync(marker)).toBe(false);
  });

  test("approve starts it; a changed entry needs approval again", async () => {
    const w = workspace();
    const { marker, entry } = trap(w.home);
    w.write(w.projectFile, { trap: entry });
    const approve = await w.cli("approve", "trap");
    expect(approve.exitCode).toBe(0);
    expect(approve.stdout).toContain(`Approved 'trap' of ${w.projectFile}`);
    const list = await w.cli("list");
    expect(list.stdout).toBe(`trap  CONNECTED  1 tool(s)  (stdio: bash -c ${entry.args[1]})  [project]\n`);
    // The marker proves the trap would have been seen had it started before approval.
    expect(existsSync(marker)).toBe(true);

    w.write(w.projectFile, { trap: { ...entry, env: { ADDED: "later" } } });
    expect((await w.cli("list")).stdout).toStartWith("trap  NEEDS-APPROVAL  (project: .mcp.json)\n");
  });

  test("deny keeps it from starting, even when its entry changes; approve later lets it start", async () => {
    const w = workspace();
    const { marker, entry } = trap(w.home);
    w.write(w.projectFile, { trap: entry });
    const deny = await w.cli("deny", "trap");
    expect(deny.exitCode).toBe(0);
    expect((await w.cli("list")).stdout).toBe("trap  DENIED  (project: .mcp.json)\n");
    w.write(w.projectFile, { trap: { ...entry, timeout: 9000 } });
    expect((await w.cli("list")).stdout).toBe("trap  DENIED  (project: .mcp.json)\n");
    expect(existsSync(marker)).toBe(false);
    await w.cli("approve", "trap");
    expect((await w.cli("list")).stdout).toContain("trap  CONNECTED  1 tool(s)");
  });

  test("before approval, get and list show everything that decides what runs, values as written, loaders flagged", async () => {
    const w = workspace();
    const { marker, entry } = trap(w.home);
    w.write(w.projectFile, { trap: { ...entry, cwd: "/tmp", env: { BASH_ENV: "./payload.sh", NODE_OPTIONS: "--require ./p.js", KEY: "${GH_KEY:-none}" } } });
    const get = await w.cli("get", "trap");
    expect(get.stdout.split("\n").slice(3, 12)).toEqual([
      `  command:  bash -c '${entry.args[1]}'`,
      "  cwd:      /tmp",
      "  env:      BASH_ENV=./payload.sh",
      "            NODE_OPTIONS=--require ./p.js",
      "            KEY=${GH_KEY:-none}",
      "  reads:    $GH_KEY: passes it to the server process (env.KEY)",
      "  warning:  cwd /tmp is outside the project folder",
      "  warning:  BASH_ENV changes which code programs load: this entry can run more than its command",
      "  warning:  NODE_OPTIONS changes which code programs load: this entry can run more than its command",
    ]);
    const list = await w.cli("list");
    expect(list.stdout).toContain("    env:      BASH_ENV=./payload.sh\n");
    expect(list.stdout).toContain("    warning:  NODE_OPTIONS changes which code programs load: this entry can run more than its command\n");
    const [json] = JSON.parse((await w.cli("list", "--json")).stdout).servers;
    expect(json.entry.env).toEqual({ BASH_ENV: "./payload.sh", NODE_OPTIONS: "--require ./p.js", KEY: "${GH_KEY:-none}" });
    expect(json.warnings).toHaveLength(3);
    expect(existsSync(marker)).toBe(false);

    // The approval covers every value shown: a changed BASH_ENV asks again.
    expect((await w.cli("approve", "trap")).exitCode).toBe(0);
    w.write(w.projectFile, { trap: { ...entry, cwd: "/tmp", env: { BASH_ENV: "./other.sh", NODE_OPTIONS: "--require ./p.js", KEY: "${GH_KEY:-none}" } } });
    expect((await w.cli("list")).stdout).toStartWith("trap  NEEDS-APPROVAL");
  });

  test("approve checks every name before recording any", async () => {
    const w = workspace();
    w.write(w.userFile, { mine: { command: ECHO_SERVER } });
    w.write(w.projectFile, { a: { command: ECHO_SERVER } });
    const unknown = await w.cli("approve", "a", "b");
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("unknown project server 'b'");
    expect(existsSync(join(w.home, "approvals.json"))).toBe(false);
    const user = await w.cli("approve", "mine");
    expect(user.exitCode).toBe(2);
    expect(user.stderr).toContain("'mine' is a user server");
  });

  test("a project entry overrides the user entry of the same name", async () => {
    const w = workspace();
    w.write(w.userFile, { echo: { command: "/no/such/user-server" }, solo: { command: ECHO_SERVER } });
    w.write(w.projectFile, { echo: { command: ECHO_SERVER, args: ["project"] } });
    await w.cli("approve", "echo");
    const list = await w.cli("list");
    expect(list.stdout).toBe(
      [`echo  CONNECTED  1 tool(s)  (stdio: ${ECHO_SERVER} project)  [project]`, `solo  CONNECTED  1 tool(s)  (stdio: ${ECHO_SERVER})`, ""].join("\n"),
    );
    const get = await w.cli("get", "echo");
    expect(get.stdout).toContain("  scope:      project");
    expect(get.stdout).toContain(`  overrides:  the user entry in ${w.userFile}`);
  });

  test("add --scope project writes .mcp.json here and needs no approval from the one who added it", async () => {
    const w = workspace();
    const added = await w.cli("add", "echo", "--scope", "project", "--", ECHO_SERVER);
    expect(added.stdout).toBe(`Added stdio server 'echo' to ${w.projectFile} (project scope)\n`);
    expect(w.entries(w.projectFile)).toEqual({ echo: { type: "stdio", command: ECHO_SERVER } });
    expect(statSync(w.projectFile).mode & 0o777).toBe(0o644);
    expect(existsSync(w.userFile)).toBe(false);
    expect((await w.cli("list")).stdout).toBe(`echo  CONNECTED  1 tool(s)  (stdio: ${ECHO_SERVER})  [project]\n`);
  });

  test("a Claude Code .mcp.json with ${VAR} defaults loads as it is", async () => {
    const w = workspace();
    writeFileSync(w.projectFile, JSON.stringify({ mcpServers: { echo: { type: "stdio", command: "${ECHO_BIN:-" + ECHO_SERVER + "}", args: [], env: {} } } }));
    await w.cli("approve", "echo");
    // Shown as written: an expanded variable could hold a secret.
    expect((await w.cli("list")).stdout).toBe(`echo  CONNECTED  1 tool(s)  (stdio: ${"${ECHO_BIN:-"}${ECHO_SERVER}})  [project]\n`);
  });

  test("--mcp-config replaces both scopes and is trusted as given", async () => {
    const w = workspace();
    const { marker, entry } = trap(w.home);
    w.write(w.projectFile, { trap: entry });
    w.write(w.userFile, { mine: { command: ECHO_SERVER } });
    const flagFile = join(w.home, "given.json");
    w.write(flagFile, { given: { command: ECHO_SERVER } });
    const list = await w.cli("list", "--mcp-config", flagFile);
    expect(list.stdout).toBe(`given  CONNECTED  1 tool(s)  (stdio: ${ECHO_SERVER})\n`);
    expect(existsSync(marker)).toBe(false);
  });
});

describe("entry options", () => {
  test('"disabled": true keeps the entry without starting it', async () => {
    const w = workspace();
    const { marker, entry } = trap(w.home);
    w.write(w.userFile, { off: { ...entry, disabled: true }, echo: { command: ECHO_SERVER } });
    const list = await w.cli("list");
    expect(list.stdout).toBe([`off   DISABLED   (stdio: bash -c ${entry.args[1]})`, `echo  CONNECTED  1 tool(s)  (stdio: ${ECHO_SERVER})`, ""].join("\n"));
    const call = await w.cli("call", "off", "echo", "text=x");
    expect(call.exitCode).toBe(2);
    expect(call.stderr).toContain("server 'off' is disabled");
    expect(existsSync(marker)).toBe(false);
  });

  test("includeTools and excludeTools decide which tools mcp tools shows", async () => {
    const w = workspace();
    w.write(w.userFile, {
      only: { command: BUN, args: [SDK_STDIO_SERVER], includeTools: ["add"] },
      most: { command: BUN, args: [SDK_STDIO_SERVER], excludeTools: ["fail"] },
      none: { command: ECHO_SERVER, excludeTools: ["echo"] },
    });
    const { stdout } = await w.cli("tools", "--json");
    const names = JSON.parse(stdout).tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(["mcp__only__add", "mcp__most__echo", "mcp__most__add"]);
    const list = await w.cli("list");
    expect(list.stdout).toContain(`none  CONNECTED  0 tool(s)  (stdio: ${ECHO_SERVER})`);
  });
});
