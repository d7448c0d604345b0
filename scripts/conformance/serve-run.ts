/**
 * `bun run conformance --serve`: the suite's SERVER scenarios against `cat-code mcp serve --http
 * --no-namespace` (the compiled binary) fronting fixtures/conformance/reference-server.ts (the
 * suite's reference tools, resources and prompts on the official SDK v2, which cat-code speaks
 * 2026-07-28 to, whatever revision the suite speaks to cat-code), at 2025-11-25 and
 * 2026-07-28: every scenario the suite requires at each revision is run, and judged unless it
 * needs what cat-code does not do (NOT_JUDGED, NOT_JUDGED_CHECKS, each with the reason).
 *
 * The suite sends no headers of its own, and the endpoint refuses requests without its bearer
 * token, so the suite talks to a small proxy in this process that adds the token (and names the
 * endpoint's own host and origin where the suite named the proxy's; any other Host or Origin, the
 * DNS-rebinding scenario's, is passed on as it is, for the endpoint to refuse).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sanitizeForTerminal } from "../../src/terminal/terminal-text.ts";
import { spawnAnnounced } from "../announced-process.ts";
import { buildBinary } from "../build.ts";
import { REVISIONS, SUITE_ENTRY } from "./requirements.ts";

const ROOT = join(import.meta.dir, "..", "..");
/** The suite's reference tools, resources and prompts, on the official SDK v2: what cat-code fronts here. */
const REFERENCE_SERVER = join(ROOT, "fixtures", "conformance", "reference-server.ts");

/** Scenarios run and reported but not judged: each needs what cat-code does not do. */
export const NOT_JUDGED: Array<{ scenarios: RegExp; reason: string }> = [
  {
    scenarios: /^server-sse-polling$/,
    reason: "resumable event streams (SEP-1699: event ids, a priming event, a retry field, a GET with Last-Event-ID): mcp serve's streams are not resumable (the suite only warns)",
  },
  { scenarios: /^tasks-/, reason: "the tasks extension (io.modelcontextprotocol/tasks), which cat-code does not implement" },
];

/** Checks of judged scenarios that are not judged, by the suite's check id, with why. */
export const NOT_JUDGED_CHECKS: Record<string, string> = {};

export function notJudged(scenario: string): string | undefined {
  return NOT_JUDGED.find(({ scenarios }) => scenarios.test(scenario))?.reason;
}

export interface ScenarioLine {
  revision: string;
  scenario: string;
  /** The suite's own count of the scenario's checks. */
  passed: number;
  failed: number;
  /** `<check id>: <message>` of each FAILURE or WARNING that is judged (the suite fails on warnings too). */
  problems: string[];
  /** Why the scenario is not judged; undefined when it is. */
  notJudged?: string;
}

/** The judged problems of one scenario's run, read from its checks.json. */
function judgedProblems(resultDir: string, scenario: string): string[] {
  const dir = readdirSync(resultDir).find((name) => name.startsWith(`server-${scenario}-`));
  if (!dir) return ["the suite wrote no checks.json for it"];
  const checks = JSON.parse(readFileSync(join(resultDir, dir, "checks.json"), "utf8")) as Array<{ id: string; status: string; errorMessage?: string }>;
  return checks
    .filter((check) => (check.status === "FAILURE" || check.status === "WARNING") && !Object.hasOwn(NOT_JUDGED_CHECKS, check.id))
    .map((check) => `${check.id}: ${check.status} ${check.errorMessage ?? ""}`.trim());
}

/** The suite's summary lines: `✓ tools-list: 3 passed, 0 failed`. */
export function parseSummary(revision: string, output: string): Array<Omit<ScenarioLine, "problems">> {
  return [...output.matchAll(/^[✓✗] ([\w./-]+): (\d+) passed, (\d+) failed$/gm)].map((match) => ({
    revision,
    scenario: match[1] as string,
    passed: Number(match[2]),
    failed: Number(match[3]),
  }));
}

/** The line printed for a scenario: PASS, FAIL with its problems, or NOT JUDGED with why. */
export function formatLine(line: ScenarioLine): string {
  const counts = `${line.passed} passed, ${line.failed} failed`;
  if (line.notJudged) return `----  ${line.revision}  ${line.scenario}  ${counts}  (not judged: ${line.notJudged})`;
  if (line.problems.length === 0) return `PASS  ${line.revision}  ${line.scenario}  ${counts}`;
  return [`FAIL  ${line.revision}  ${line.scenario}  ${counts}`, ...line.problems.map((problem) => `      ${sanitizeForTerminal(problem.slice(0, 300))}`)].join("\n");
}

/** `binary`: the compiled cat-code to serve with (default: built here, as a release is). */
export async function runServeConformance(options: { outDir?: string; binary?: string; log?: (line: string) => void } = {}): Promise<{ lines: ScenarioLine[]; outDir: string }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const outDir = options.outDir ?? mkdtempSync(join(tmpdir(), "cat-code-serve-conformance-"));
  const binary = options.binary ?? (await buildBinary({ outfile: join(ROOT, "dist", "conformance", "cat-code") }));
  const home = mkdtempSync(join(tmpdir(), "cat-code-serve-home-"));
  const config = join(home, "mcp.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { reference: { command: process.execPath, args: [REFERENCE_SERVER] } } }));
  // The endpoint's URL is in the line it prints on stderr once it listens (the token is in its home by then).
  const { child: served, match } = await spawnAnnounced([binary, "mcp", "serve", "--http", "--mcp-config", config, "--server", "reference", "--no-namespace"], {
    env: { CAT_CODE_HOME: home },
    stdin: "ignore",
    ready: /listening on (http:\/\/\S+)\n/,
    label: "cat-code mcp serve --http",
    timeoutMs: 60_000,
  });
  try {
    const url = match[1] as string;
    const token = readFileSync(join(home, "serve-token"), "utf8").trim();
    const proxy = tokenProxy(url, token);
    try {
      const lines: ScenarioLine[] = [];
      for (const revision of REVISIONS) {
        const resultDir = join(outDir, revision);
        mkdirSync(resultDir, { recursive: true });
        const suite = Bun.spawn([process.execPath, SUITE_ENTRY, "server", "--url", proxy.url, "--requirements", revision, "-o", resultDir], {
          cwd: resultDir,
          stdin: "ignore",
          stdout: "pipe",
          stderr: "pipe",
        });
        const [stdout, stderr] = await Promise.all([new Response(suite.stdout).text(), new Response(suite.stderr).text(), suite.exited]);
        writeFileSync(join(resultDir, "suite-output.txt"), `${stdout}\n--- stderr ---\n${stderr}`);
        for (const summary of parseSummary(revision, stdout)) {
          const line: ScenarioLine = { ...summary, problems: judgedProblems(resultDir, summary.scenario), notJudged: notJudged(summary.scenario) };
          lines.push(line);
          log(formatLine(line));
        }
      }
      return { lines, outDir };
    } finally {
      proxy.stop();
    }
  } finally {
    served.kill("SIGTERM");
    await served.exited;
  }
}

/** A proxy on 127.0.0.1 that adds the bearer token; see the file's comment for Host and Origin. */
function tokenProxy(target: string, token: string): { url: string; stop(): void } {
  const targetUrl = new URL(target);
  let own = "";
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const headers = new Headers(request.headers);
      headers.set("authorization", `Bearer ${token}`);
      if (headers.get("host") === own) headers.set("host", targetUrl.host);
      if (headers.get("origin") === `http://${own}`) headers.set("origin", targetUrl.origin);
      const path = new URL(request.url).pathname;
      const response = await fetch(new URL(path, targetUrl), { method: request.method, headers, body: request.body, redirect: "manual" });
      return new Response(response.body, { status: response.status, headers: response.headers });
    },
  });
  own = `127.0.0.1:${server.port}`;
  return { url: `http://${own}/mcp`, stop: () => void server.stop(true) };
}
