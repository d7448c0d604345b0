#!/usr/bin/env bun
/**
 * The client the official MCP conformance suite runs (`bun run conformance` hands it to the suite's
 * `client --command`). The suite starts one scenario's server and runs
 *
 *   bun scripts/conformance-client.ts [--request-timeout <ms>] <server url>
 *
 * with MCP_CONFORMANCE_SCENARIO set (and MCP_CONFORMANCE_CONTEXT for scenarios that say what to call),
 * then judges what its server saw. Each scenario is played through cat-code's own CLI (`mcp tools`,
 * `mcp call`) against a temp config with one HTTP entry for the URL: the suite judges the code a user
 * runs, and cat-code must tell the protocol revision by itself (MCP_CONFORMANCE_PROTOCOL_VERSION is
 * deliberately ignored). An `auth/*` scenario's entry gets the `oauth` block a user would write (the
 * client the context names, if any), a fresh CAT_CODE_HOME, and a fetch-based `$BROWSER` that
 * approves the sign-in. Exits 1 when a step failed, naming it; 2 on a usage error or unknown scenario.
 */
import { CatCodeCli, stopRunningSteps } from "./conformance/cat-code-cli.ts";
import { oauthSettings, PLAYS, playFor, type ScenarioContext } from "./conformance/client-scenarios.ts";

/** Each request cat-code makes gives up after this: a scenario that hangs fails in bounded time. */
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

function usage(problem: string): never {
  console.error(`conformance-client: ${problem}\nusage: bun scripts/conformance-client.ts [--request-timeout <ms>] <server url>`);
  process.exit(2);
}

function parseArgs(argv: string[]): { url: string; requestTimeoutMs: number } {
  let requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== "--request-timeout") {
      positionals.push(argv[i]!);
      continue;
    }
    const ms = Number(argv[++i]);
    if (!Number.isInteger(ms) || ms <= 0) usage(`--request-timeout needs a whole number of milliseconds, got '${argv[i] ?? ""}'`);
    requestTimeoutMs = ms;
  }
  if (positionals.length !== 1 || !/^https?:\/\//.test(positionals[0]!)) usage("give exactly one http:// server URL (the suite appends it)");
  return { url: positionals[0]!, requestTimeoutMs };
}

function readContext(): ScenarioContext {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) return {};
  try {
    return JSON.parse(raw) as ScenarioContext;
  } catch {
    usage("MCP_CONFORMANCE_CONTEXT is not JSON");
  }
}

const { url, requestTimeoutMs } = parseArgs(process.argv.slice(2));
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const play = playFor(scenario);
if (!play) usage(`no play for scenario '${scenario}' (known: ${Object.keys(PLAYS).join(", ")}, auth/*): add one to scripts/conformance/client-scenarios.ts`);

const context = readContext();
const cli = new CatCodeCli(url, requestTimeoutMs, oauthSettings(scenario, context));
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    stopRunningSteps();
    cli.close();
    process.exit(128 + (signal === "SIGTERM" ? 15 : 2));
  });
}
try {
  await play(cli, context);
} catch (error) {
  cli.failures.push((error as Error).message);
} finally {
  cli.close();
}
if (cli.failures.length > 0) {
  console.error(`conformance-client: ${scenario}: ${cli.failures.length} step(s) failed:\n${cli.failures.map((f) => `  ${f}`).join("\n")}`);
  process.exit(1);
}
