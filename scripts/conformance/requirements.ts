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
}

interface RequirementsFile {
  client?: unknown;
  not_scored?: unknown;
}

/**
 * The client scenarios a revision requires, read from the suite's own `requirements/<revision>.yaml`
 * so that a newer suite brings its new scenarios along. Authorization (`auth/*`) is out of scope (issue
 * 13), and so are extensions; a `not_scored` client scenario of the revision itself (e.g. one added
 * after its release) is run too, marked as not scored.
 */
export async function clientScenarios(revision: Revision): Promise<ScenarioRun[]> {
  const path = join(SUITE_DIR, "requirements", `${revision}.yaml`);
  const file = Bun.YAML.parse(await Bun.file(path).text()) as RequirementsFile;
  if (!Array.isArray(file.client)) throw new Error(`${path}: no 'client' list`);
  const scored = file.client.filter((name): name is string => typeof name === "string" && !name.startsWith("auth/"));
  const extra = (Array.isArray(file.not_scored) ? file.not_scored : [])
    .filter((entry): entry is { scenario: string; leg: string; reason: string } => typeof entry?.scenario === "string")
    .filter((entry) => entry.leg === "client" && entry.reason !== "extension" && !entry.scenario.startsWith("auth/"))
    .map((entry) => entry.scenario);
  return [
    ...scored.map((scenario) => ({ revision, scenario, scored: true })),
    ...extra.filter((scenario) => !scored.includes(scenario)).map((scenario) => ({ revision, scenario, scored: false })),
  ];
}

export function isRevision(text: string): text is Revision {
  return (REVISIONS as readonly string[]).includes(text);
}
