import { describe, expect, test } from "bun:test";
import { cliErrorFor, statusWarning } from "../../../../src/cli/mcp/server-errors.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import type { ServerStatus } from "../../../../src/mcp/pool/server-pool.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";
import { CliError, ExitCode } from "../../../../src/terminal/cli-error.ts";

const base = { name: "echo", scope: "project", source: "/p/.mcp.json", description: "stdio: ./echo-server.sh" } as const;

/** Every state a server can be in, with the exit code and message a command that named it ends with. */
const table: [ServerStatus, ExitCode | undefined, string | undefined][] = [
  [{ ...base, state: "connected", tools: [], serverInfo: undefined, protocolVersion: "2025-11-25" }, undefined, undefined],
  [{ ...base, state: "needs-auth", reason: "MCP server 'echo' needs a sign-in: run cat-code mcp login echo" }, ExitCode.NeedsAuth, "MCP server 'echo' needs a sign-in: run cat-code mcp login echo"],
  [
    { ...base, state: "failed", reason: "initialize timed out after 300 ms", stderr: ["first", "last"] },
    ExitCode.Unavailable,
    "cannot connect to MCP server 'echo': initialize timed out after 300 ms\nfirst\nlast",
  ],
  [{ ...base, state: "failed", reason: "exited with code 3", stderr: [] }, ExitCode.Unavailable, "cannot connect to MCP server 'echo': exited with code 3"],
  [{ ...base, state: "pending" }, ExitCode.Unavailable, "cannot connect to MCP server 'echo': not connected"],
  [{ ...base, state: "invalid", reason: '"command" is empty' }, ExitCode.Usage, `server 'echo' has an invalid entry in /p/.mcp.json: "command" is empty`],
  [{ ...base, state: "disabled" }, ExitCode.Usage, "server 'echo' is disabled in /p/.mcp.json"],
  [
    { ...base, state: "needs-approval" },
    ExitCode.Usage,
    "server 'echo' comes from /p/.mcp.json and is not approved yet; check it (cat-code mcp get echo), then run: cat-code mcp approve echo",
  ],
  [{ ...base, state: "denied" }, ExitCode.Usage, "server 'echo' from /p/.mcp.json was denied; to use it, run: cat-code mcp approve echo"],
];

describe("cliErrorFor(status)", () => {
  test.each(table)("%o is exit %p", (status, exitCode, message) => {
    const error = cliErrorFor(status);
    expect(error?.exitCode).toBe(exitCode);
    expect(error?.message).toBe(message);
  });

  test("the table covers every state", () => {
    const states = new Set(table.map(([status]) => status.state));
    expect([...states].sort()).toEqual(["connected", "denied", "disabled", "failed", "invalid", "needs-approval", "needs-auth", "pending"]);
  });
});

describe("statusWarning: the line for a server a command about every server skips", () => {
  test("unapproved, waiting for a sign-in, failed: one line each; the rest say nothing", () => {
    const lines = table.map(([status]) => statusWarning(status));
    expect(lines).toEqual([
      undefined,
      "MCP server 'echo' needs a sign-in: run cat-code mcp login echo",
      "MCP server 'echo' failed: initialize timed out after 300 ms (see cat-code mcp list)",
      "MCP server 'echo' failed: exited with code 3 (see cat-code mcp list)",
      undefined,
      undefined,
      undefined,
      "MCP server 'echo' of /p/.mcp.json is not approved yet (cat-code mcp approve echo)",
      undefined,
    ]);
  });
});

describe("cliErrorFor(error)", () => {
  const what = "calling 'echo' on 'echo'";
  const errors: [string, unknown, ExitCode, string][] = [
    ["a sign-in only the user can give", new McpError(ErrorCode.InternalError, "sign in again: cat-code mcp login echo", { kind: "needs-auth" }), ExitCode.NeedsAuth, "sign in again: cat-code mcp login echo"],
    ["a feature the server does not offer", McpError.notOffered("echo", "prompts"), ExitCode.Usage, McpError.notOffered("echo", "prompts").message],
    ["a timeout", McpError.timeout("tools/call", 300), ExitCode.Unavailable, "calling 'echo' on 'echo' failed: tools/call timed out after 300 ms"],
    ["a crash", McpError.closed("exited with code 3"), ExitCode.Unavailable, "calling 'echo' on 'echo' failed: exited with code 3"],
    ["the server's own error", new McpError(-32602, "bad uri"), ExitCode.Unavailable, "calling 'echo' on 'echo' failed: bad uri"],
    ...(["session-expired", "stream-lost", "unreachable", "probe-ended"] as const).map((kind): [string, unknown, ExitCode, string] => [
      `an error of kind ${kind}`,
      new McpError(undefined, "it went away", { kind }),
      ExitCode.Unavailable,
      "calling 'echo' on 'echo' failed: it went away",
    ]),
  ];

  test.each(errors)("%s", (_, error, exitCode, message) => {
    const cli = cliErrorFor(error, what) as CliError;
    expect(cli).toBeInstanceOf(CliError);
    expect([cli.exitCode, cli.message]).toEqual([exitCode, message]);
  });

  test("anything else is left as it is (a bug, exit 4)", () => {
    const bug = new TypeError("x is undefined");
    expect(cliErrorFor(bug, what)).toBe(bug);
  });
});
