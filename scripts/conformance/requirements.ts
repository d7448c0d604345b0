import { join } from "node:path";

/** The installed suite (`@modelcontextprotocol/conformance`, a devDependency). */
export const SUITE_DIR = join(import.meta.dir, "..", "..", "node_modules", "@modelcontextprotocol", "conformance");
export const SUITE_ENTRY = join(SUITE_DIR, "dist", "index.js");

/** The revisions cat-code answers for: the last handshake revision and the stateless one. */
export const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
export type Revision = (typeof REVISIONS)[number];

export interface ScenarioRun {
  revision: Revision;
  scenario: string;
  /** False for a scenario the requirement list runs but does not count (`not_scored`). */
  scored: boolean;
  /** The suite skips this scenario at this revision unless forced (`--force`): an extension, or one removed since. */
  forced?: boolean;
}

interface RequirementsFile {
  client?: unknown;
  not_scored?: unknown;
}

/** Extensions cat-code implements, run though not scored: the issue asks for the client_credentials grant. */
const EXTENSIONS = ["auth/client-credentials-basic"];
/**
 * The 2025-03-26 authorization (no protected resource metadata: the MCP server's origin is the
 * authorization server) that cat-code still falls back to. The scenarios were removed in 2025-06-18,
 * so no list names them: they run once, forced, at the last handshake revision, not scored.
 */
const LEGACY: Partial<Record<Revision, string[]>> = {
  "2025-11-25": ["auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback"],
};

/**
 * The client scenarios a revision requires, read from the suite's own `requirements/<revision>.yaml`
 * so that a newer suite brings its new scenarios along: every scored one, authorization (`auth/*`)
 * included; a `not_scored` client scenario of the revision itself (e.g. one added after its release)
 * is run too, marked as not scored. Extensions are left out (optional by definition, and cat-code
 * implements none of client-credentials-jwt (private_key_jwt), dpop, dpop-nonce,
 * enterprise-managed-authorization, wif-jwt-bearer), except those in EXTENSIONS, which the suite only
 * runs when forced; so are the LEGACY ones.
 */
export async function clientScenarios(revision: Revision): Promise<ScenarioRun[]> {
  const path = join(SUITE_DIR, "requirements", `${revision}.yaml`);
  const file = Bun.YAML.parse(await Bun.file(path).text()) as RequirementsFile;
  if (!Array.isArray(file.client)) throw new Error(`${path}: no 'client' list`);
  const scored = file.client.filter((name): name is string => typeof name === "string");
  const extra = (Array.isArray(file.not_scored) ? file.not_scored : [])
    .filter((entry): entry is { scenario: string; leg: string; reason: string } => typeof entry?.scenario === "string")
    .filter((entry) => entry.leg === "client" && (entry.reason !== "extension" || EXTENSIONS.includes(entry.scenario)))
    .map((entry) => entry.scenario);
  return [
    ...scored.map((scenario) => ({ revision, scenario, scored: true })),
    ...extra
      .filter((scenario) => !scored.includes(scenario))
      .map((scenario) => ({ revision, scenario, scored: false, ...(EXTENSIONS.includes(scenario) ? { forced: true } : {}) })),
    ...(LEGACY[revision] ?? []).map((scenario) => ({ revision, scenario, scored: false, forced: true })),
  ];
}

export function isRevision(text: string): text is Revision {
  return (REVISIONS as readonly string[]).includes(text);
}
