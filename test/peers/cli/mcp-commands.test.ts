import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, EVERYTHING_SERVER, REPO, SDK_STDIO_SERVER, tempDir, uniqueSeconds, writeConfig } from "../../helpers/paths.ts";
import { waitForNoProcesses, killAll } from "../../helpers/processes.ts";
import { waitFor } from "../../helpers/wait-for.ts";

describe.each(KEEPER_MODES)("%s", (mode) => {
  const { runBinary, stopKeepers } = useKeeperMode(mode);

  const chaos = (...flags: string[]) => ({ command: BUN, args: [CHAOS_SERVER, ...flags] });

  describe("cat-code mcp list", () => {
    test("shows every configured server: connected, failed with the reason, invalid with the field", async () => {
      const config = writeConfig({
        echo: { command: ECHO_SERVER },
        missing: { command: "/no/such/server" },
        bad: { command: "" },
      });
      const { exitCode, stdout } = await runBinary(["mcp", "list", "--mcp-config", config]);
      expect(exitCode).toBe(0);
      const lines = stdout.trimEnd().split("\n");
      expect(lines[0]).toBe(`echo     CONNECTED  1 tool(s)  (stdio: ${ECHO_SERVER})`);
      expect(lines[1]).toStartWith("missing  FAILED     command not found: '/no/such/server'");
      expect(lines[2]).toBe(`bad      INVALID    "command" is empty  (${config})`);
    });

    test("a failed server shows the last lines of its stderr", async () => {
      const config = writeConfig({ slow: { ...chaos("--hang=initialize", "--stderr-flood=300"), timeout: 300 } });
      const { stdout } = await runBinary(["mcp", "list", "--mcp-config", config]);
      expect(stdout).toContain("slow  FAILED  initialize timed out after 300 ms");
      expect(stdout).toContain("    stderr: stderr flood done");
    });

    test("--json prints one document with every server", async () => {
      const config = writeConfig({ echo: { command: ECHO_SERVER, env: { SECRET_TOKEN: "hunter2" } } });
      const { stdout } = await runBinary(["mcp", "list", "--json", "--mcp-config", config]);
      const json = JSON.parse(stdout);
      expect(json.servers[0]).toMatchObject({ name: "echo", state: "connected", toolCount: 1, tools: ["echo"] });
      expect(stdout).not.toContain("hunter2");
    });

    test("a corrupt config is one warning with line and column, no stack trace, and exit 0", async () => {
      const path = join(tempDir(), "mcp.json");
      writeFileSync(path, '{"mcpServers": {');
      const { exitCode, stderr } = await runBinary(["mcp", "list", "--mcp-config", path]);
      expect(exitCode).toBe(0);
      expect(stderr).toContain(`${path} is not valid JSON`);
      expect(stderr).toContain("line 1, column 17");
      expect(stderr).not.toContain("    at ");
    });

    test("no config file at all: no servers, a hint, exit 0", async () => {
      const home = tempDir();
      const { exitCode, stderr, stdout } = await runBinary(["mcp", "list"], { env: { CAT_CODE_HOME: home } });
      expect(exitCode).toBe(0);
      expect(stdout).toBe("");
      expect(stderr).toContain(`No MCP servers configured in ${join(home, "mcp.json")}`);
    });

    test("CAT_CODE_HOME moves the config folder", async () => {
      const home = tempDir();
      writeConfig({ echo: { command: ECHO_SERVER } }, home);
      const { stdout } = await runBinary(["mcp", "list"], { env: { CAT_CODE_HOME: home } });
      expect(stdout).toContain("echo  CONNECTED  1 tool(s)");
    });

    test("a --mcp-config file that does not exist is a usage error", async () => {
      const { exitCode, stderr } = await runBinary(["mcp", "list", "--mcp-config", "/no/such/mcp.json"]);
      expect(exitCode).toBe(2);
      expect(stderr).toContain("config file not found: /no/such/mcp.json");
    });
  });

  describe("cat-code mcp tools", () => {
    test("lists namespaced names with descriptions; --schema adds input schemas", async () => {
      const config = writeConfig({ echo: { command: ECHO_SERVER } });
      const plain = await runBinary(["mcp", "tools", "--mcp-config", config]);
      expect(plain.stdout).toBe("mcp__echo__echo  Echo back the input text\n");
      const withSchema = await runBinary(["mcp", "tools", "echo", "--schema", "--mcp-config", config]);
      expect(withSchema.stdout).toContain('    "properties": {');
    });

    test("--json lists tools with server, original name and schema", async () => {
      const { stdout } = await runBinary(["mcp", "tools", "--json", "--stdio", `${BUN} ${SDK_STDIO_SERVER}`]);
      const { tools } = JSON.parse(stdout);
      expect(tools.map((t: { name: string }) => t.name)).toEqual(["mcp__adhoc__echo", "mcp__adhoc__add", "mcp__adhoc__fail"]);
      expect(tools[0]).toMatchObject({ server: "adhoc", tool: "echo", readOnly: true, inputSchema: { type: "object" } });
    });

    test("a named server that fails is exit 3 with the last lines of its stderr, as mcp call says it", async () => {
      const config = writeConfig({ slow: { ...chaos("--hang=initialize", "--stderr-flood=300"), timeout: 300 } });
      const { exitCode, stderr } = await runBinary(["mcp", "tools", "slow", "--mcp-config", config]);
      expect(exitCode).toBe(3);
      expect(stderr).toContain("cannot connect to MCP server 'slow': initialize timed out after 300 ms\n");
      expect(stderr).toContain("stderr flood done");
    });

    test("an unknown server is exit 2 with the names that exist", async () => {
      const config = writeConfig({ echo: { command: ECHO_SERVER } });
      const { exitCode, stderr } = await runBinary(["mcp", "tools", "ecko", "--mcp-config", config]);
      expect(exitCode).toBe(2);
      expect(stderr).toContain("unknown server 'ecko'. Did you mean: echo?");
    });
  });

  describe("cat-code mcp call", () => {
    const config = () => writeConfig({ echo: { command: ECHO_SERVER }, chaos: chaos(), sdk: { command: BUN, args: [SDK_STDIO_SERVER] } });

    test("prints the flattened result and exits 0", async () => {
      const { exitCode, stdout } = await runBinary(["mcp", "call", "echo", "echo", "--json", '{"text":"hi"}', "--mcp-config", config()]);
      expect([exitCode, stdout]).toEqual([0, "hi\n"]);
    });

    test("key=value arguments are typed from the schema: a string stays a string", async () => {
      const { stdout } = await runBinary(["mcp", "call", "echo", "echo", "text=123", "--mcp-config", config()]);
      expect(stdout).toBe("123\n");
      const sum = await runBinary(["mcp", "call", "sdk", "add", "a=2", "b=3.5", "--mcp-config", config()]);
      expect(sum.stdout).toBe("5.5\n");
    });

    test("--raw prints the whole JSON result", async () => {
      const { stdout } = await runBinary(["mcp", "call", "sdk", "add", "a=1", "b=2", "--raw", "--mcp-config", config()]);
      expect(JSON.parse(stdout)).toEqual({ content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 }, isError: false });
    });

    test("a tool that answers isError exits 1 with its text", async () => {
      const { exitCode, stdout } = await runBinary(["mcp", "call", "sdk", "fail", "--mcp-config", config()]);
      expect([exitCode, stdout]).toEqual([1, "this tool always fails\n"]);
    });

    // Whether the mistake can only be seen once the server is reached (its tools and schemas), or before anything starts.
    const usageErrors: [string, string[], string, "before start" | "after connect"][] = [
      ["--json that is not JSON", ["echo", "echo", "--json", "{text"], "--json is not valid JSON", "before start"],
      ["--json that is not an object", ["echo", "echo", "--json", "[1]"], "--json must be a JSON object", "before start"],
      ["an unknown server", ["nope", "echo"], "unknown server 'nope'", "before start"],
      ["a mistyped option", ["echo", "echo", "--jsn", "{}"], "unknown option '--jsn'", "before start"],
      ["an unknown tool", ["echo", "ech"], "unknown tool 'ech'. Did you mean: echo?", "after connect"],
      ["a key the schema lacks", ["echo", "echo", "txt=1"], "unknown argument 'txt'. Did you mean: text?", "after connect"],
      ["a number that is not a number", ["echo", "sleep", "ms=x"], "ms=x: expected a number", "after connect"],
      ["a required argument left out", ["echo", "echo"], "missing required argument 'text': add text=...", "after connect"],
      ["a required argument left out of --json", ["echo", "echo", "--json", '{"other":1}'], "missing required argument 'text'", "after connect"],
      ["a value of the wrong type in --json", ["echo", "echo", "--json", '{"text":1}'], "argument 'text': expected string, got a number 1", "after connect"],
    ];
    for (const [what, args, message, when] of usageErrors) {
      test(`${what}: exit 2, a message, and no tools/call sent`, async () => {
        const record = join(tempDir(), "received.ndjson");
        const cfg = writeConfig({ echo: { command: BUN, args: [CHAOS_SERVER, `--record=${record}`] } });
        const { exitCode, stderr, stdout } = await runBinary(["mcp", "call", ...args, "--mcp-config", cfg]);
        expect(exitCode).toBe(2);
        expect(stderr).toContain(message);
        expect(stderr).not.toContain("    at ");
        expect(stdout).toBe("");
        if (when === "before start") {
          expect(existsSync(record)).toBe(false);
        } else {
          // The server did start and answer (else this would prove nothing), and got no call.
          const received = readFileSync(record, "utf8");
          expect(received).toContain('"method":"tools/list"');
          expect(received).not.toContain("tools/call");
        }
      });
    }

    test("a server that never answers: exit 3 after the timeout, and the server got notifications/cancelled", async () => {
      const record = join(tempDir(), "received.ndjson");
      const cfg = writeConfig({ hang: chaos("--hang=call", `--record=${record}`) });
      // Long enough for the server's start-up on a loaded machine (the timeout holds for initialize too).
      const { exitCode, stderr } = await runBinary(["mcp", "call", "hang", "echo", "text=x", "--timeout", "2000", "--mcp-config", cfg]);
      expect(exitCode).toBe(3);
      expect(stderr).toContain("tools/call timed out after 2000 ms");
      // Warm, the keeper's server lives on: its cancellation may be read after the command has exited.
      await waitFor(() => readFileSync(record, "utf8").includes('"method":"notifications/cancelled"'), "the server to get notifications/cancelled");
    });

    test("a server that crashes mid-call: exit 3 with the exit code and its stderr", async () => {
      const cfg = writeConfig({ crashy: chaos("--crash=on-call") });
      const { exitCode, stderr } = await runBinary(["mcp", "call", "crashy", "echo", "text=x", "--mcp-config", cfg]);
      expect(exitCode).toBe(3);
      expect(stderr).toContain("exited with code 3");
      expect(stderr).toContain("chaos: crashing on call as asked");
    });

    test("a server that cannot start: exit 3 naming the command", async () => {
      const cfg = writeConfig({ gone: { command: "/no/such/server" } });
      const { exitCode, stderr } = await runBinary(["mcp", "call", "gone", "echo", "--mcp-config", cfg]);
      expect(exitCode).toBe(3);
      expect(stderr).toContain("cannot connect to MCP server 'gone': command not found: '/no/such/server'");
    });

    test("an unsupported protocol version: exit 3 naming the version", async () => {
      const cfg = writeConfig({ old: chaos("--protocol-version=1999-01-01") });
      const { exitCode, stderr } = await runBinary(["mcp", "call", "old", "echo", "text=x", "--mcp-config", cfg]);
      expect(exitCode).toBe(3);
      expect(stderr).toContain("unsupported protocol version 1999-01-01");
    });

    test("the server's ping and roots/list mid-call are answered and the call completes", async () => {
      const cfg = writeConfig({ asks: chaos("--server-requests") });
      const { exitCode, stdout } = await runBinary(["mcp", "call", "asks", "echo", "text=hi", "--mcp-config", cfg]);
      expect(exitCode).toBe(0);
      expect(stdout).toContain("ping:ok {}");
      // cat-code declares roots (the working directory): roots/list is answered now, not refused.
      expect(stdout).toContain(`roots/list:ok {"roots":[{"uri":"file://${REPO}"`);
    });

    test("a 20 MB result is printed whole", async () => {
      const cfg = writeConfig({ big: chaos() });
      const { exitCode, stdout } = await runBinary(["mcp", "call", "big", "big", "bytes=20000000", "--mcp-config", cfg]);
      expect(exitCode).toBe(0);
      expect(stdout.length).toBe(20_000_001);
    });

    test("no process of a server started as sh -c '<server with a background child>; true' remains", async () => {
      const marker = uniqueSeconds();
      const cfg = writeConfig({ tree: { command: "sh", args: ["-c", `${BUN} ${CHAOS_SERVER} --grandchild=${marker}; true`] } });
      const { exitCode, stdout } = await runBinary(["mcp", "call", "tree", "echo", "text=hi", "--mcp-config", cfg]);
      expect([exitCode, stdout]).toEqual([0, "hi\n"]);
      // Warm, the server stays while its keeper runs: stopping the keeper must leave nothing either.
      await stopKeepers();
      const left = await waitForNoProcesses(marker, 3000);
      killAll(left);
      expect(left).toEqual([]);
    });

    test("ANTHROPIC_API_KEY is not passed to a server unless its entry names it", async () => {
      // $VAR without braces: the shell reads it from the server's environment, not our config expansion.
      const printKey = ["-c", 'echo "key=$ANTHROPIC_API_KEY" >&2; exit 1'];
      const cfg = writeConfig({
        plain: { command: "sh", args: printKey },
        named: { command: "sh", args: printKey, env: { ANTHROPIC_API_KEY: "${ANTHROPIC_API_KEY}" } },
      });
      const { stdout } = await runBinary(["mcp", "list", "--mcp-config", cfg], { env: { ANTHROPIC_API_KEY: "sk-test-123" } });
      const [plain, named] = stdout.split(/\n(?=named)/);
      expect(plain).toMatch(/key=$/m);
      expect(plain).not.toContain("sk-test-123");
      expect(named).toContain("key=sk-test-123");
    });
  });

  describe("@modelcontextprotocol/server-everything over stdio", () => {
    const everything = `node ${EVERYTHING_SERVER}`;

    test("lists its tools", async () => {
      const { exitCode, stdout } = await runBinary(["mcp", "tools", "--stdio", everything]);
      expect(exitCode).toBe(0);
      expect(stdout).toContain("mcp__adhoc__echo");
      expect(stdout).toContain("mcp__adhoc__get-sum");
    });

    test("calls echo and get-sum", async () => {
      const echo = await runBinary(["mcp", "call", "--stdio", everything, "echo", "message=hello"]);
      expect([echo.exitCode, echo.stdout]).toEqual([0, "Echo: hello\n"]);
      const sum = await runBinary(["mcp", "call", "--stdio", everything, "get-sum", "--json", '{"a":20,"b":22}']);
      expect([sum.exitCode, sum.stdout]).toEqual([0, "The sum of 20 and 22 is 42.\n"]);
    });
  });
});
