/**
 * `cat-code mcp serve` as a process (the compiled binary), spoken to in raw JSON-RPC: a server that
 * needs a sign-in is reported per call with the command that gives it, while the others are
 * served; mistakes on the command line are usage errors (exit 2) that say what to do.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ScriptedServer } from "../../../fixtures/http/scripted-server.ts";
import { catCode, runBinary } from "../../helpers/binary.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, tempDir, uniqueSeconds, writeConfig } from "../../helpers/paths.ts";
import { killAll, waitForNoProcesses } from "../../helpers/processes.ts";
import { StdioPeer } from "../../helpers/raw-peers.ts";

let protectedServer: ScriptedServer;
let config: string;
let home: string;

beforeAll(() => {
  protectedServer = new ScriptedServer(
    () => new Response("unauthorized", { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="mcp", error="invalid_token"' } }),
  );
  home = join(tempDir(), "home");
  config = writeConfig({ linear: { type: "http", url: protectedServer.url }, echo: { command: ECHO_SERVER } });
});
afterAll(() => protectedServer?.stop());

describe("a server that needs a sign-in", () => {
  test("its calls say to run cat-code mcp login (with the flags that found it); the other servers are served", async () => {
    const peer = new StdioPeer([...catCode(), "mcp", "serve", "--mcp-config", config], { CAT_CODE_HOME: home, BROWSER: "/bin/false" });
    try {
      await peer.request(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
      peer.send({ method: "notifications/initialized" });
      const list = await peer.request(2, "tools/list");
      expect(list.result.tools.map((tool: { name: string }) => tool.name)).toEqual(["echo__echo"]);
      const call = await peer.request(3, "tools/call", { name: "linear__create_issue", arguments: {} });
      expect(call.result.isError).toBe(true);
      expect(call.result.content[0].text).toContain(`needs you to sign in: run cat-code mcp login --mcp-config ${config} linear`);
      const echo = await peer.request(4, "tools/call", { name: "echo__echo", arguments: { text: "served" } });
      expect(echo.result.content[0].text).toBe("served");
    } finally {
      await peer.close();
    }
  });
});

describe("the end of the client", () => {
  test("when the client closes stdin, mcp serve answers what it was asked, exits 0 and leaves no server process behind", async () => {
    const marker = uniqueSeconds();
    // A server behind `sh -c` with a grandchild carrying the marker: "no process left" covers the whole tree.
    const treeConfig = writeConfig({ tree: { command: "sh", args: ["-c", `${BUN} ${CHAOS_SERVER} --grandchild=${marker}; true`] } });
    const peer = new StdioPeer([...catCode(), "mcp", "serve", "--mcp-config", treeConfig], { CAT_CODE_HOME: home });
    try {
      await peer.request(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
      const list = await peer.request(2, "tools/list");
      expect(list.result.tools.length).toBeGreaterThan(0);
      expect(await peer.close()).toBe(0);
      expect(await waitForNoProcesses(marker)).toEqual([]);
    } finally {
      killAll(await waitForNoProcesses(marker, 0));
    }
  });
});

describe("cat-code as the client", () => {
  test("cat-code's own client reaches a server through mcp serve, in the 2026-07-28 revision", async () => {
    const echoConfig = writeConfig({ echo: { command: ECHO_SERVER } });
    const served = `${catCode().join(" ")} mcp serve --mcp-config ${echoConfig}`;
    const call = await runBinary(["mcp", "call", "--no-keeper", "--stdio", served, "echo__echo", "text=through serve"], { env: { CAT_CODE_HOME: home } });
    expect(call).toMatchObject({ exitCode: 0, stdout: "through serve\n" });
    const list = await runBinary(["mcp", "list", "--no-keeper", "--json", "--stdio", served], { env: { CAT_CODE_HOME: home } });
    expect(JSON.parse(list.stdout).servers[0]).toMatchObject({ state: "connected", era: "modern", tools: ["echo__echo"], serverInfo: { name: "cat-code" } });
  });
});

describe("--no-namespace", () => {
  test("one server's tools are listed and called by their own names", async () => {
    const peer = new StdioPeer([...catCode(), "mcp", "serve", "--mcp-config", config, "--server", "echo", "--no-namespace"], { CAT_CODE_HOME: home });
    try {
      await peer.request(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
      peer.send({ method: "notifications/initialized" });
      const list = await peer.request(2, "tools/list");
      expect(list.result.tools.map((tool: { name: string }) => tool.name)).toEqual(["echo"]);
      const echo = await peer.request(3, "tools/call", { name: "echo", arguments: { text: "unprefixed" } });
      expect(echo.result.content[0].text).toBe("unprefixed");
    } finally {
      await peer.close();
    }
  });
});

describe("usage errors", () => {
  const serve = (...args: string[]) => runBinary(["mcp", "serve", "--mcp-config", config, ...args], { env: { CAT_CODE_HOME: home } });

  test("an unknown --server names the servers there are", async () => {
    const { exitCode, stderr } = await serve("--server", "echo,nope");
    expect(exitCode).toBe(2);
    expect(stderr).toContain("nope");
    expect(stderr).toContain("echo");
  });

  test("--no-namespace with more than one server served is refused, saying to name one", async () => {
    const { exitCode, stderr } = await serve("--no-namespace");
    expect(exitCode).toBe(2);
    expect(stderr).toContain("--no-namespace serves exactly one server under its own names, but 2 would be served (linear, echo); name one with --server <name>");
  });

  test("--port out of range, or without --http, is refused before anything starts", async () => {
    const outOfRange = await serve("--http", "--port", "70000");
    expect(outOfRange.exitCode).toBe(2);
    expect(outOfRange.stderr).toContain("--port must be a whole number from 0 to 65535, got '70000'");
    const withoutHttp = await serve("--port", "8080");
    expect(withoutHttp.exitCode).toBe(2);
    expect(withoutHttp.stderr).toContain("--port and --host go with --http");
  });
});
