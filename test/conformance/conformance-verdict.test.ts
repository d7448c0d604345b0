/**
 * How `bun run conformance` judges a run, shown with stand-in clients against the suite's real
 * `initialize` scenario: the suite's own verdict is not enough on its own.
 */
import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatOutcome, runConformance } from "../../scripts/conformance.ts";
import { REPO, tempDir } from "../helpers/paths.ts";

const dir = tempDir("cat-code-conformance-verdict-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A client that only exits with `code`, sending nothing to the scenario's server. */
function standInClient(name: string, code: number): string[] {
  const path = join(dir, `${name}.ts`);
  writeFileSync(path, `process.exit(${code});\n`);
  return [process.execPath, path];
}

async function runInitializeWith(clientArgv: string[]) {
  const { outcomes } = await runConformance({ revisions: ["2025-11-25"], scenarios: ["initialize"], outDir: join(dir, "out"), clientArgv });
  expect(outcomes).toHaveLength(1);
  return outcomes[0]!;
}

test("a client that sends nothing fails, though the suite passes a run whose checks all stayed silent", async () => {
  const outcome = await runInitializeWith(standInClient("silent", 0));
  expect(outcome.passed).toBe(false);
  expect(outcome.problems).toEqual(["no check succeeded: the client never sent what the scenario judges"]);
  expect(formatOutcome(outcome)).toStartWith("FAIL  2025-11-25  initialize");
});

test("a client that exits non-zero fails, and the exit code is named", async () => {
  const outcome = await runInitializeWith(standInClient("broken", 3));
  expect(outcome.passed).toBe(false);
  expect(outcome.problems).toContain("the client exited with code 3");
});

test("what the suite reports reaches the terminal sanitized: a check's message cannot drive the screen", () => {
  const outcome = { revision: "2026-07-28", scenario: "x", scored: true, passed: false, resultDir: dir, seconds: 1, problems: ["Check: header '\u001b]0;pwned\u0007' sent"] } as const;
  const text = formatOutcome({ ...outcome, problems: [...outcome.problems] });
  expect(text).not.toContain("\u001b");
  expect(text).not.toContain("\u0007");
  expect(text).toContain("Check: header");
});

test("the conformance client refuses a missing URL and an unknown scenario with one line, exit 2", async () => {
  const client = join(REPO, "scripts", "conformance-client.ts");
  for (const [args, env, reason] of [
    [[], { MCP_CONFORMANCE_SCENARIO: "initialize" }, "conformance-client: give exactly one http:// server URL (the suite appends it)"],
    [["http://127.0.0.1:9/mcp"], { MCP_CONFORMANCE_SCENARIO: "no-such-scenario" }, "conformance-client: no play for scenario 'no-such-scenario'"],
  ] as const) {
    const child = Bun.spawn([process.execPath, client, ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
    const [stderr, exitCode] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    expect({ args, exitCode }).toEqual({ args, exitCode: 2 });
    expect(stderr.split("\n")[0]).toStartWith(reason);
  }
});
