/**
 * The official MCP conformance suite's authorization scenarios (`auth/*`) against cat-code as a client,
 * inside the test run: one test per scenario and revision. Each is played as a user would (see
 * scripts/conformance/client-scenarios.ts): an entry with an `oauth` block in a fresh CAT_CODE_HOME,
 * `cat-code mcp call` (exit 5), `cat-code mcp login`, `cat-code mcp call` again, and a fetch-based
 * stand-in for the browser; the suite's servers
 * (authorization server included, which approves at once) are real processes on localhost.
 */
import { expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { clientScenarios, REVISIONS } from "../../scripts/conformance/requirements.ts";
import { runScenario } from "../../scripts/conformance/suite-run.ts";
import { tempDir } from "../helpers/paths.ts";
import { keyOf, labelOf, testScenarioRuns } from "./scenario-runs.ts";

const RUNS = (await Promise.all(REVISIONS.map(clientScenarios))).flat().filter((run) => run.scenario.startsWith("auth/"));
const SCORED_BOTH = [
  "metadata-default", "metadata-var1", "metadata-var2", "metadata-var3", "basic-cimd", "scope-from-www-authenticate",
  "scope-from-scopes-supported", "scope-omitted-when-undefined", "scope-step-up", "scope-retry-limit",
  "token-endpoint-auth-basic", "token-endpoint-auth-post", "token-endpoint-auth-none", "pre-registration",
].map((name) => `auth/${name}`);
const SCORED_2026 = [
  "resource-mismatch", "offline-access-scope", "offline-access-not-supported", "authorization-server-migration",
  "iss-supported", "iss-not-advertised", "iss-supported-missing", "iss-wrong-issuer", "iss-unexpected", "iss-normalized",
  "metadata-issuer-mismatch",
].map((name) => `auth/${name}`);

test("the runs are every auth scenario of both requirement lists, client_credentials and the 2025-03-26 fallbacks (forced, not scored)", () => {
  expect(RUNS.map((run) => `${labelOf(run)}${run.forced ? " forced" : ""}`)).toEqual([
    ...SCORED_BOTH.map((scenario) => `2025-11-25 ${scenario}`),
    "2025-11-25 auth/client-credentials-basic (not scored) forced",
    "2025-11-25 auth/2025-03-26-oauth-metadata-backcompat (not scored) forced",
    "2025-11-25 auth/2025-03-26-oauth-endpoint-fallback (not scored) forced",
    ...[...SCORED_BOTH, ...SCORED_2026].map((scenario) => `2026-07-28 ${scenario}`),
    "2026-07-28 auth/client-credentials-basic (not scored) forced",
  ]);
});

const { outcomes } = testScenarioRuns(RUNS, 240_000);

/** What cat-code printed on stderr in a run (the client echoes each step's stderr there). */
function clientStderr(key: string): string {
  const outcome = outcomes.get(key);
  if (!outcome) return "";
  const found = [...new Bun.Glob("**/stderr.txt").scanSync({ cwd: outcome.resultDir })];
  return found.map((file) => readFileSync(join(outcome.resultDir, file), "utf8")).join("\n");
}

test("the scenarios that must be refused are refused by cat-code for their reason, not by accident", () => {
  for (const [scenario, reason] of [
    ["auth/resource-mismatch", "cat-code refuses to send a token to a server the metadata is not for"],
    ["auth/metadata-issuer-mismatch", "names the issuer https://attacker.example.com"],
    ["auth/iss-supported-missing", `promises an "iss" in its redirect (RFC 9207) but this one has none`],
    ["auth/iss-wrong-issuer", "says it comes from https://evil.example.com"],
    ["auth/iss-unexpected", "says it comes from https://evil.example.com"],
    ["auth/iss-normalized", "(compared exactly)"],
    ["auth/scope-retry-limit", "still refuses for lack of scope (mcp:admin) after 2 sign-ins"],
  ] as const) {
    const key = keyOf({ revision: "2026-07-28", scenario });
    expect({ key, refused: clientStderr(key).includes(reason) }).toEqual({ key, refused: true });
  }
});

test("no token, code or client secret of any run reaches cat-code's output", () => {
  const secrets = /test-token|cc-token|test-auth-code|pre-registered-secret|conformance-test-secret|test-client-secret/;
  for (const outcome of outcomes.values()) {
    const files = [...new Bun.Glob("**/{stdout,stderr}.txt").scanSync({ cwd: outcome.resultDir })];
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(join(outcome.resultDir, file), "utf8");
      expect({ run: keyOf(outcome), file, leaked: secrets.exec(text)?.[0] }).toEqual({ run: keyOf(outcome), file, leaked: undefined });
    }
  }
});

test("a scenario the suite skips at a revision runs only when forced: unforced, it is SKIPPED and judged a failure", async () => {
  const run = { revision: "2025-11-25", scenario: "auth/2025-03-26-oauth-endpoint-fallback", scored: false } as const;
  const outDir = tempDir("cat-code-conformance-skip-");
  try {
    const outcome = await runScenario(run, { outDir, clientTimeoutMs: 30_000, requestTimeoutMs: 10_000 });
    expect(outcome.passed).toBe(false);
    expect(outcome.problems).toEqual([`the suite wrote no checks.json (exit 0): see ${join(outcome.resultDir, "suite-output.txt")}`]);
    expect(readFileSync(join(outcome.resultDir, "suite-output.txt"), "utf8")).toContain("SKIPPED");
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});
