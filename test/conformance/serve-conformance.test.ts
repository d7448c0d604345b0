/**
 * The official conformance suite's SERVER scenarios against `cat-code mcp serve --http
 * --no-namespace` fronting the reference fixture (fixtures/conformance/reference-server.ts, SDK v2), at
 * 2025-11-25 and 2026-07-28, as `bun run conformance --serve` runs them (scripts/conformance/serve-run.ts):
 * every scenario each revision requires is run, and every one that is judged passes. Those not
 * judged need what cat-code does not do (the tasks extension, …: NOT_JUDGED says why).
 */
import { beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { SUITE_DIR } from "../../scripts/conformance/requirements.ts";
import { notJudged, runServeConformance, type ScenarioLine } from "../../scripts/conformance/serve-run.ts";
import { compiledBinary } from "../helpers/binary.ts";
import { tempDir } from "../helpers/paths.ts";

let lines: ScenarioLine[] = [];

beforeAll(async () => {
  ({ lines } = await runServeConformance({ binary: await compiledBinary(), outDir: tempDir("cat-code-serve-conformance-"), log: () => {} }));
}, 300_000);

/** The scenarios a revision's requirement list names for servers, as the suite ran them. */
async function required(revision: string): Promise<string[]> {
  const file = Bun.YAML.parse(await Bun.file(join(SUITE_DIR, "requirements", `${revision}.yaml`)).text()) as { server: string[] };
  return file.server;
}

test.each(["2025-11-25", "2026-07-28"])("at %s every required server scenario ran", async (revision) => {
  const ran = lines.filter((line) => line.revision === revision).map((line) => line.scenario);
  expect(ran).toEqual(expect.arrayContaining(await required(revision)));
});

test.each(["2025-11-25", "2026-07-28"])("at %s every judged scenario passes each check", (revision) => {
  const judged = lines.filter((line) => line.revision === revision && !line.notJudged);
  expect(judged.length).toBeGreaterThan(25);
  expect(judged.filter((line) => line.problems.length > 0).map((line) => ({ scenario: line.scenario, problems: line.problems }))).toEqual([]);
});

test("the scenarios that call the suite's reference tools, resources and prompts by name are judged", () => {
  const byName = ["tools-call-simple-text", "tools-call-with-progress", "tools-call-elicitation", "resources-templates-read", "resources-subscribe", "prompts-get-with-args", "json-schema-2020-12", "server-stateless"];
  // The suite checks the key of each question: the reference upstream asks under the suite's own keys.
  const underTheSuitesKeys = ["input-required-result-basic-elicitation", "input-required-result-multi-round", "input-required-result-request-state", "input-required-result-non-tool-request"];
  // Sampling and roots are relayed to the client, what it answers handed upstream (a first call's answers too).
  const relayed = ["tools-call-sampling", "input-required-result-basic-sampling", "input-required-result-basic-list-roots", "input-required-result-multiple-input-requests", "input-required-result-capability-check", "input-required-result-ignore-extra-params"];
  for (const scenario of [...byName, ...underTheSuitesKeys, ...relayed]) {
    expect(notJudged(scenario)).toBeUndefined();
  }
});
