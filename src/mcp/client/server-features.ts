import { isPlainObject } from "../../system/plain-object.ts";

/** What a server may offer besides tools, as it declared in its capabilities. */
export type ServerFeature = "resources" | "resourceSubscriptions" | "prompts" | "completions";
export const SERVER_FEATURES: readonly ServerFeature[] = ["resources", "resourceSubscriptions", "prompts", "completions"];

/**
 * Whether the capabilities a server declared (`initialize`, or `server/discover` in the modern
 * era) include `feature`. A server that did not declare a feature is never asked for it: many
 * answer an unknown method slowly, wrongly, or not at all. No capabilities (not connected): false.
 */
export function offersFeature(capabilities: Record<string, unknown> | undefined, feature: ServerFeature): boolean {
  if (!capabilities) return false;
  switch (feature) {
    case "resources":
    case "prompts":
    case "completions":
      return isPlainObject(capabilities[feature]);
    case "resourceSubscriptions": {
      const resources = capabilities.resources;
      return isPlainObject(resources) && resources.subscribe === true;
    }
  }
}

/** Whether the server said it announces changes to this list (`<capability>.listChanged`). */
export function announcesListChanges(capabilities: Record<string, unknown> | undefined, capability: "tools" | "resources" | "prompts"): boolean {
  const declared = capabilities?.[capability];
  return isPlainObject(declared) && declared.listChanged === true;
}

/**
 * Whether to ask this server for its tools. One that declared other features but not `tools` (a
 * server of resources or prompts only) has none, and many answer tools/list with an error. One that
 * declared nothing at all is asked all the same: hand-written servers often leave `tools` out.
 */
export function mayHaveTools(capabilities: Record<string, unknown> | undefined): boolean {
  if (!capabilities || isPlainObject(capabilities.tools)) return true;
  return !(["resources", "prompts"] as const).some((feature) => offersFeature(capabilities, feature));
}
