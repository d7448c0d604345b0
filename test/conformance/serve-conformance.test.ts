/**
 * The official conformance suite's SERVER scenarios against `cat-code mcp serve --http` fronting
 * the fixture servers (`bun run conformance --serve`, scripts/conformance/serve-run.ts), at
 * 2025-11-25 and 2026-07-28. The scenarios about the endpoint itself must pass every check the suite
 * can make of a server in front of others; those that call the suite's own reference tools,
 * resources and prompts by their names cannot (they are served as `<server>__<name>`).
 */
import { beforeAll, expect, test } from "bun:test";
import { ENDPOINT_SCENARIOS, runServeConformance, type ScenarioLine } from "../../scripts/conformance/serve-run.ts";
import { compiledBinary } from "../helpers/binary.ts";
import { tempDir } from "../helpers/paths.ts";

let lines: ScenarioLine[] = [];

beforeAll(async () => {
  lines = await runServeConformance({ binary: await compiledBinary(), outDir: tempDir("cat-code-serve-conformance-"), log: () => {} });
}, 300_000);

test("both revisions ran their endpoint scenarios", () => {
  const ran = (revision: string) => lines.filter((line) => line.revision === revision && ENDPOINT_SCENARIOS.includes(line.scenario)).map((line) => line.scenario).sort();
  expect(ran("2025-11-25")).toEqual(
    ["completion-complete", "dns-rebinding-protection", "logging-set-level", "ping", "prompts-list", "resources-list", "server-initialize", "server-session-lifecycle", "server-sse-multiple-streams", "tools-list"].sort(),
  );
  expect(ran("2026-07-28")).toEqual(
    ["caching", "completion-complete", "dns-rebinding-protection", "http-header-validation", "prompts-list", "resources-list", "server-sse-multiple-streams", "server-stateless", "tools-list"].sort(),
  );
});

test("every endpoint scenario passes each check the suite can make of it", () => {
  const failing = lines.filter((line) => ENDPOINT_SCENARIOS.includes(line.scenario) && line.failedOnEndpoint !== 0);
  expect(failing).toEqual([]);
});
