import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Glob } from "bun";
import { SUITE_ENTRY } from "../../../../scripts/conformance/requirements.ts";
import { BUN, tempDir } from "../../../helpers/paths.ts";

/**
 * Discovery against the servers of the official conformance suite (servers no one here wrote): the
 * suite's `client` command runs discovery-probe.ts against one auth scenario, whose servers record
 * every request they get in checks.json. The probe stops after discovery, so the scenario's sign-in
 * checks fail by design; these tests judge only the discovery part: which paths were asked, in
 * which order, and what was found or refused.
 */

const PROBE = join(import.meta.dir, "discovery-probe.ts");

interface Check {
  id: string;
  status: string;
  details?: { method?: string; path?: string };
}

interface ProbeRun {
  /** What the probe found, or `error`. */
  out: any;
  /** `METHOD /path` of every request the scenario's servers got, MCP server and authorization server apart. */
  mcp: string[];
  auth: string[];
  checks: Check[];
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function probe(scenario: string, revision: string): Promise<ProbeRun> {
  const dir = tempDir("cat-code-discovery-");
  dirs.push(dir);
  const out = join(dir, "out.json");
  const suite = Bun.spawn(
    [BUN, SUITE_ENTRY, "client", "--command", `exec ${BUN} ${PROBE} ${out}`, "--scenario", scenario, "--spec-version", revision, "--timeout", "20000", "-o", dir],
    { cwd: dir, stdin: "ignore", stdout: "pipe", stderr: "pipe" },
  );
  const [output] = await Promise.all([new Response(suite.stdout).text(), new Response(suite.stderr).text(), suite.exited]);
  const found = [...new Glob("**/checks.json").scanSync({ cwd: dir })];
  if (found.length === 0) throw new Error(`the suite wrote no checks.json:\n${output}`);
  const checks = JSON.parse(readFileSync(join(dir, found[0]!), "utf8")) as Check[];
  const requests = (id: string) => checks.filter((c) => c.id === id).map((c) => `${c.details?.method} ${c.details?.path}`);
  return { out: JSON.parse(readFileSync(out, "utf8")), mcp: requests("incoming-request"), auth: requests("incoming-auth-request"), checks };
}

/** The suite's own verdicts on discovery: these must be SUCCESS where present, and no trap may have fired. */
function discoveryVerdicts(run: ProbeRun): Record<string, string> {
  const ids = ["prm-pathbased-requested", "prm-priority-order", "authorization-server-metadata", "authorization-server-metadata-wrong-path"];
  return Object.fromEntries(run.checks.filter((c) => ids.includes(c.id)).map((c) => [c.id, c.status]));
}

const PRM_PATH = "GET /.well-known/oauth-protected-resource/mcp";
const PRM_ROOT = "GET /.well-known/oauth-protected-resource";

describe("discovery against the conformance suite's servers", () => {
  test("auth/metadata-default: the challenge's path-aware PRM, never the root (the suite traps it), then RFC 8414 at the root", async () => {
    const run = await probe("auth/metadata-default", "2025-11-25");
    expect(run.mcp).toEqual(["POST /mcp", PRM_PATH]);
    expect(run.auth).toEqual(["GET /.well-known/oauth-authorization-server"]);
    expect(discoveryVerdicts(run)).toEqual({ "prm-pathbased-requested": "SUCCESS", "authorization-server-metadata": "SUCCESS" });
    expect(run.out.server.issuer).toBe(run.out.resource.authorizationServers[0]);
  }, 60_000);

  test("auth/metadata-var1: no resource_metadata in the challenge, so the path-aware URL first; OpenID Connect after RFC 8414", async () => {
    const run = await probe("auth/metadata-var1", "2025-11-25");
    expect(run.out.challenge.resourceMetadata).toBeUndefined();
    expect(run.mcp).toEqual(["POST /mcp", PRM_PATH]);
    expect(run.auth).toEqual(["GET /.well-known/oauth-authorization-server", "GET /.well-known/openid-configuration"]);
    expect(discoveryVerdicts(run)).toEqual({ "prm-pathbased-requested": "SUCCESS", "authorization-server-metadata": "SUCCESS" });
  }, 60_000);

  test("auth/metadata-var2: the root PRM after the path-aware 404, its pathless resource kept exactly; the tenant's metadata by path insertion, never the root (trapped)", async () => {
    const run = await probe("auth/metadata-var2", "2025-11-25");
    expect(run.mcp).toEqual(["POST /mcp", PRM_PATH, PRM_ROOT]);
    expect(run.auth).toEqual(["GET /.well-known/oauth-authorization-server/tenant1"]);
    expect(run.out.resource.resource).toMatch(/^http:\/\/localhost:\d+$/);
    expect(run.out.server.issuer).toEndWith("/tenant1");
    expect(discoveryVerdicts(run)).toEqual({ "prm-pathbased-requested": "SUCCESS", "authorization-server-metadata": "SUCCESS" });
  }, 60_000);

  test("auth/metadata-var3: the challenge's custom PRM URL; the three tenant URLs in the spec's order", async () => {
    const run = await probe("auth/metadata-var3", "2025-11-25");
    expect(run.mcp).toEqual(["POST /mcp", "GET /custom/metadata/location.json"]);
    expect(run.auth).toEqual([
      "GET /.well-known/oauth-authorization-server/tenant1",
      "GET /.well-known/openid-configuration/tenant1",
      "GET /tenant1/.well-known/openid-configuration",
    ]);
    expect(discoveryVerdicts(run)).toEqual({ "prm-pathbased-requested": "SUCCESS", "authorization-server-metadata": "SUCCESS" });
  }, 60_000);

  test("auth/resource-mismatch: refused after reading the PRM, before any request to the authorization server", async () => {
    const run = await probe("auth/resource-mismatch", "2026-07-28");
    expect(run.out.error).toContain("is for https://evil.example.com/mcp, not for http://localhost:");
    expect(run.out.error).toContain("cat-code refuses to send a token to a server the metadata is not for");
    expect(run.auth).toEqual([]);
  }, 60_000);

  test("auth/metadata-issuer-mismatch: metadata naming another issuer is refused", async () => {
    const run = await probe("auth/metadata-issuer-mismatch", "2026-07-28");
    expect(run.out.error).toContain("names the issuer https://attacker.example.com, not http://localhost:");
    expect(discoveryVerdicts(run)["authorization-server-metadata"]).toBe("SUCCESS");
  }, 60_000);

  test("auth/2025-03-26-oauth-metadata-backcompat: no PRM anywhere, so the server's origin is the issuer and its root metadata is used", async () => {
    const run = await probe("auth/2025-03-26-oauth-metadata-backcompat", "2025-03-26");
    expect(run.out.resource).toBeUndefined();
    expect(run.mcp).toEqual(["POST /mcp", PRM_PATH, PRM_ROOT, "GET /.well-known/oauth-authorization-server"]);
    expect(run.out.server).toMatchObject({ fallback: false });
    expect(run.out.server.authorizationEndpoint).toMatch(/^http:\/\/localhost:\d+\/oauth\/authorize$/);
  }, 60_000);

  test("auth/2025-03-26-oauth-endpoint-fallback: no metadata at all, so /authorize, /token and /register at the origin", async () => {
    const run = await probe("auth/2025-03-26-oauth-endpoint-fallback", "2025-03-26");
    expect(run.mcp).toEqual(["POST /mcp", PRM_PATH, PRM_ROOT, "GET /.well-known/oauth-authorization-server", "GET /.well-known/openid-configuration"]);
    expect(run.out.server).toMatchObject({ fallback: true });
    expect(run.out.server.tokenEndpoint).toMatch(/^http:\/\/localhost:\d+\/token$/);
  }, 60_000);
});
