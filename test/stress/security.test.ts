/**
 * Secrets stay out of output, cat-code's own key stays out of servers, and text from servers cannot
 * drive the terminal.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runBinary } from "../helpers/binary.ts";
import { BUN, CHAOS_SERVER, writeConfig } from "../helpers/paths.ts";
import { freePort, type ServerProcess } from "../helpers/http-server-process.ts";
import { startChaosHttp } from "./chaos.ts";

const SECRET = "sekrit-4f1c9e77";
const ESCAPES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe("header values never appear in output, over HTTP", () => {
  const servers: ServerProcess[] = [];
  let working: ServerProcess;
  let refusing: ServerProcess;
  beforeAll(async () => {
    [working, refusing] = await Promise.all([startChaosHttp([]), startChaosHttp(["--status=401"])]);
    servers.push(working, refusing);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  const entry = (url: string) => ({ url, headers: { Authorization: `Bearer ${SECRET}`, "X-Api-Key": "${CAT_CODE_TEST_KEY}" } });
  const env = { CAT_CODE_TEST_KEY: `${SECRET}-from-env` };
  const cases: [what: string, url: () => string, expectInOutput: RegExp][] = [
    ["a server that accepts the header", () => working.url, /"state": "connected"|CONNECTED/],
    ["a server that answers 401", () => refusing.url, /401 Unauthorized/],
    ["a url where nothing listens (connection refused)", () => `http://127.0.0.1:${freePort()}/mcp`, /cannot reach/],
  ];
  for (const [what, url, expected] of cases) {
    test(`${what}: mcp list, mcp list --json and mcp call print no header value`, async () => {
      const config = writeConfig({ remote: entry(url()) });
      const runs = await Promise.all([
        runBinary(["mcp", "list", "--mcp-config", config], { env }),
        runBinary(["mcp", "list", "--json", "--mcp-config", config], { env }),
        runBinary(["mcp", "call", "remote", "echo", "text=hi", "--verbose", "--mcp-config", config], { env }),
      ]);
      const all = runs.map((r) => r.stdout + r.stderr).join("\n");
      expect(all).toMatch(expected);
      expect(all).not.toContain(SECRET);
    });
  }
});

describe("cat-code's own secrets are not passed to stdio servers", () => {
  test("a server that prints its whole environment sees neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN unless its entry passes one", async () => {
    const printer = { command: BUN, args: [CHAOS_SERVER, "--print-env=ANTHROPIC_API_KEY,ANTHROPIC_AUTH_TOKEN,CAT_CODE_VISIBLE", "--crash=before-handshake"] };
    const config = writeConfig({ plain: printer, named: { ...printer, env: { ANTHROPIC_API_KEY: "${ANTHROPIC_API_KEY}" } } });
    const { stdout } = await runBinary(["mcp", "list", "--json", "--mcp-config", config], {
      env: { ANTHROPIC_API_KEY: "sk-ant-test-999", ANTHROPIC_AUTH_TOKEN: "auth-token-999", CAT_CODE_VISIBLE: "yes" },
    });
    const [plain, named] = JSON.parse(stdout).servers as { name: string; reason: string; stderr: string[] }[];
    const seen = (server: { reason: string; stderr: string[] }) => [server.reason, ...server.stderr].join("\n");
    // The dump reached us (an ordinary variable is there), and the secrets were not in it.
    expect(seen(plain!)).toContain("env CAT_CODE_VISIBLE=yes");
    expect(seen(plain!)).toContain("env ANTHROPIC_API_KEY unset");
    expect(seen(plain!)).toContain("env ANTHROPIC_AUTH_TOKEN unset");
    expect(seen(named!)).toContain("env ANTHROPIC_API_KEY=sk-ant-test-999");
    expect(seen(named!)).toContain("env ANTHROPIC_AUTH_TOKEN unset");
  });
});

describe("text from a server cannot drive the terminal", () => {
  test("a tool name and description with ANSI escapes and control characters are shown sanitized by mcp tools", async () => {
    const { exitCode, stdout } = await runBinary(["mcp", "tools", "--stdio", `${BUN} ${CHAOS_SERVER} --evil-names`]);
    expect(exitCode).toBe(0);
    expect(stdout).not.toMatch(ESCAPES);
    expect(stdout).toMatch(/^mcp__adhoc__evil\S*\s+Looks innocent/m);
  });

  test("stderr quoted in an mcp call error is shown sanitized", async () => {
    const server = `sh -c 'printf "\\033[2Jevil\\033]0;title\\007\\n" >&2; exit 1'`;
    const { exitCode, stderr } = await runBinary(["mcp", "call", "--stdio", server, "echo", "text=x"]);
    expect(exitCode).toBe(3);
    expect(stderr).toContain("evil");
    expect(stderr).not.toMatch(ESCAPES);
  });
});
