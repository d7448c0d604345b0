/**
 * `bun run conformance --serve`: the suite's SERVER scenarios against `cat-code mcp serve --http`
 * (the compiled binary) fronting the project's fixture servers, at 2025-11-25 and 2026-07-28.
 *
 * The suite sends no headers of its own, and the endpoint refuses requests without its bearer
 * token, so the suite talks to a small proxy in this process that adds the token (and names the
 * endpoint's own host and origin where the suite named the proxy's; any other Host or Origin, the
 * DNS-rebinding scenario's, is passed on as it is, for the endpoint to refuse).
 *
 * Most scenarios call the suite's reference tools, resources and prompts by their own names
 * (`test_simple_text`, `test://static-text`…): a server in front of other servers serves them, if
 * at all, as `<server>__<name>`, so those fail by design. The scenarios that judge the endpoint
 * itself are ENDPOINT_SCENARIOS; the exit code is 1 when one of those fails.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../build.ts";

const ROOT = join(import.meta.dir, "..", "..");
const SUITE_ENTRY = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
/** The suite's reference tools, resources and prompts, on the official SDK: what cat-code fronts here. */
const REFERENCE_SERVER = join(ROOT, "fixtures", "conformance", "reference-server.ts");

/** Scenarios about the endpoint itself, not about reference tools of the suite's own server. */
export const ENDPOINT_SCENARIOS = [
  "server-initialize",
  "server-session-lifecycle",
  "server-stateless",
  "logging-set-level",
  "ping",
  "completion-complete",
  "tools-list",
  "resources-list",
  "prompts-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
  "http-header-validation",
  "caching",
];

export interface ScenarioLine {
  revision: string;
  scenario: string;
  passed: number;
  failed: number;
  /** Failed checks that judge the endpoint: not those the suite could not test without its reference tools. */
  failedOnEndpoint?: number;
}

/** How the suite says a check needed one of its reference server's tools, which a server in front of others does not serve by that name. */
const NEEDS_REFERENCE_TOOL = /^Not testable: server does not list the diagnostic tool/;

/** Failed checks of one scenario's run (its checks.json) that are not NEEDS_REFERENCE_TOOL. */
function endpointFailures(resultDir: string, scenario: string): number | undefined {
  const dir = readdirSync(resultDir).find((name) => name.startsWith(`server-${scenario}-`));
  if (!dir) return undefined;
  const checks = JSON.parse(readFileSync(join(resultDir, dir, "checks.json"), "utf8")) as Array<{ status: string; errorMessage?: string }>;
  return checks.filter((check) => check.status === "FAILURE" && !NEEDS_REFERENCE_TOOL.test(check.errorMessage ?? "")).length;
}

/** The suite's summary lines: `✓ tools-list: 3 passed, 0 failed`. */
export function parseSummary(revision: string, output: string): ScenarioLine[] {
  return [...output.matchAll(/^[✓✗] ([\w./-]+): (\d+) passed, (\d+) failed$/gm)].map((match) => ({
    revision,
    scenario: match[1] as string,
    passed: Number(match[2]),
    failed: Number(match[3]),
  }));
}

/** `binary`: the compiled cat-code to serve with (default: built here, as a release is). */
export async function runServeConformance(options: { outDir?: string; binary?: string; log?: (line: string) => void } = {}): Promise<ScenarioLine[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const outDir = options.outDir ?? mkdtempSync(join(tmpdir(), "cat-code-serve-conformance-"));
  const binary = options.binary ?? (await buildBinary({ outfile: join(ROOT, "dist", "conformance", "cat-code") }));
  const home = mkdtempSync(join(tmpdir(), "cat-code-serve-home-"));
  const config = join(home, "mcp.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { reference: { command: process.execPath, args: [REFERENCE_SERVER] } } }));
  const served = Bun.spawn([binary, "mcp", "serve", "--http", "--mcp-config", config, "--server", "reference", "--no-namespace"], {
    env: { ...process.env, CAT_CODE_HOME: home },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  try {
    const url = await announced(served.stderr);
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
        for (const line of parseSummary(revision, stdout)) {
          line.failedOnEndpoint = endpointFailures(resultDir, line.scenario);
          lines.push(line);
          const kind = !ENDPOINT_SCENARIOS.includes(line.scenario)
            ? " (calls the suite's reference names)"
            : line.failed > 0 && line.failedOnEndpoint === 0
              ? " (only checks that need the suite's reference tools failed)"
              : "";
          log(`${line.failed === 0 ? "PASS" : "FAIL"}  ${revision}  ${line.scenario}${kind}  ${line.passed} passed, ${line.failed} failed`);
        }
      }
      log(`results in ${outDir}`);
      return lines;
    } finally {
      proxy.stop();
    }
  } finally {
    served.kill("SIGTERM");
    await served.exited;
  }
}

/** The endpoint's URL, from the line it prints on stderr once it listens (the token is in its home by then). */
async function announced(stderr: ReadableStream<Uint8Array>): Promise<string> {
  let seen = "";
  const decoder = new TextDecoder();
  for await (const chunk of stderr) {
    seen += decoder.decode(chunk, { stream: true });
    const url = seen.match(/listening on (http:\/\/\S+)\n/)?.[1];
    if (url) return url;
  }
  throw new Error(`cat-code mcp serve --http ended before it listened:\n${seen}`);
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
