import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { launchSummary } from "../../../../src/mcp/config/launch-summary.ts";
import { parseServerEntry } from "../../../../src/mcp/config/load-config.ts";
import type { ConfigScope } from "../../../../src/mcp/config/server-config.ts";
import { launchLines } from "../../../../src/terminal/render-launch.ts";

const PROJECT = "/work/project";
const entry = (raw: unknown, scope: ConfigScope = "project") =>
  parseServerEntry("srv", raw, scope, join(PROJECT, ".mcp.json"), { TOKEN: "expanded-secret", HOME: "/home/u" });

describe("what a project entry will run, before approval", () => {
  test("the full command line, cwd and every env name and value as written, ${VAR} unexpanded", () => {
    const summary = launchSummary(
      entry({ command: "node", args: ["server.mjs", "--flag", "two words", "it's"], cwd: "sub", env: { LOG: "debug", KEY: "${TOKEN}" } }),
      "as-written",
    );
    expect(summary.rows).toEqual([
      ["command:", "node server.mjs --flag 'two words' 'it'\\''s'"],
      ["cwd:", "sub"],
      ["env:", "LOG=debug"],
      ["", "KEY=${TOKEN}"],
      ["reads:", "$TOKEN: passes it to the server process (env.KEY)"],
    ]);
    expect(summary.warnings).toEqual([]);
    expect(JSON.stringify(summary)).not.toContain("expanded-secret");
  });

  const loaders = ["PATH", "BASH_ENV", "ENV", "NODE_OPTIONS", "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "PYTHONPATH", "PYTHONSTARTUP", "PERL5OPT", "RUBYOPT"];
  test("each variable that changes how programs load code gets a warning line", () => {
    const env = Object.fromEntries(loaders.map((name) => [name, `/tmp/payload-${name}`]));
    const summary = launchSummary(entry({ command: "node", args: ["server.mjs"], env: { ...env, LOG: "debug" } }), "as-written");
    expect(summary.rows.filter(([, value]) => value.includes("/tmp/payload-")).map(([, value]) => value)).toEqual(
      loaders.map((name) => `${name}=/tmp/payload-${name}`),
    );
    expect(summary.warnings).toEqual(loaders.map((name) => `${name} changes which code programs load: this entry can run more than its command`));
  });

  test("a cwd outside the project folder is flagged; one inside is not", () => {
    expect(launchSummary(entry({ command: "x", cwd: "/etc" }), "as-written").warnings).toEqual(["cwd /etc is outside the project folder"]);
    expect(launchSummary(entry({ command: "x", cwd: "../elsewhere" }), "as-written").warnings).toEqual(["cwd ../elsewhere is outside the project folder"]);
    expect(launchSummary(entry({ command: "x", cwd: "./tools" }), "as-written").warnings).toEqual([]);
  });

  test("http: the url and every header value as written", () => {
    const summary = launchSummary(
      entry({ url: "https://alice:${TOKEN}@mcp.example.com/mcp?key=literal", headers: { Authorization: "Bearer ${TOKEN}", "X-Team": "cats" } }),
      "as-written",
    );
    expect(summary.rows).toEqual([
      ["url:", "https://alice:${TOKEN}@mcp.example.com/mcp?key=literal"],
      ["headers:", "Authorization: Bearer ${TOKEN}"],
      ["", "X-Team: cats"],
      ["reads:", "$TOKEN: sends it to https://mcp.example.com (url, headers.Authorization)"],
    ]);
  });

  test("control characters and direction marks are shown as escapes, never dropped or cut", () => {
    const long = "x".repeat(5000);
    const summary = launchSummary(entry({ command: "node", args: ["a\u001b[2Kb", "c\u202ed"], env: { BASH_ENV: `/tmp/p\n${long}` } }), "as-written");
    expect(summary.rows).toEqual([
      ["command:", "node 'a\\u001b[2Kb' 'c\\u202ed'"],
      ["env:", `BASH_ENV=/tmp/p\\u000a${long}`],
    ]);
    // The terminal lines carry the same text, whole.
    expect(launchLines(entry({ command: "node", env: { BASH_ENV: `/tmp/p\n${long}` } }), "  ")).toEqual([
      `  command:  node`,
      `  env:      BASH_ENV=/tmp/p\\u000a${long}`,
      `  warning:  BASH_ENV changes which code programs load: this entry can run more than its command`,
    ]);
  });
});

describe("the user's own entries", () => {
  test("env and header values are masked; a url without ${VAR} has its userinfo and query values masked", () => {
    expect(launchSummary(entry({ command: "x", env: { A: "literal-secret" } }, "user"), "masked").rows).toEqual([
      ["command:", "x"],
      ["env:", "A=***"],
    ]);
    expect(launchSummary(entry({ url: "https://bob:pw@h.example/mcp?api_key=abc", headers: { H: "v" } }, "user"), "masked").rows).toEqual([
      ["url:", "https://***:***@h.example/mcp?api_key=***"],
      ["headers:", "H: ***"],
    ]);
    // A user entry shown in a terminal is masked even when asked through launchLines.
    expect(launchLines(entry({ command: "x", env: { A: "literal-secret" } }, "user"), "").join("\n")).not.toContain("literal-secret");
  });
});
