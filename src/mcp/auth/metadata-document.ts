import type * as v from "valibot";
import { log } from "../../log.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { issuePath } from "../../system/schema-issue.ts";
import { AuthError } from "./auth-error.ts";
import { authRequest, type AuthRequestOptions } from "./auth-fetch.ts";

/** A metadata document found at one of the well-known URLs. */
export interface FoundDocument {
  url: string;
  json: Record<string, unknown>;
}

/**
 * GETs `urls` in order and returns the first that answers 2xx with a JSON object: the discovery
 * walk that RFC 9728 §3 and RFC 8414 §3 (as MCP authorization 2025-11-25 orders them) share. A 404
 * or any other 4xx, a redirect (not followed: authRequest never follows one) and a body that is not
 * a JSON object (an HTML page a web server answers every path with) mean "not here": a debug line,
 * then the next URL. A 5xx is the server failing, not an absent document, so it stops the walk
 * with an AuthError: skipping it could pick a lesser document or the 2025-03-26 defaults by accident.
 * `what` names the document in messages ("protected resource metadata").
 */
export async function firstMetadataDocument(urls: readonly string[], what: string, options: AuthRequestOptions = {}): Promise<FoundDocument | undefined> {
  for (const url of urls) {
    const shown = redactUrl(url);
    const answer = await authRequest(url, { method: "GET", headers: { Accept: "application/json" } }, options);
    if (answer.status >= 500) {
      throw new AuthError(`${what} at ${shown} failed with HTTP ${answer.status}: the server has a problem; try again later or tell its operator`);
    }
    if (answer.status < 200 || answer.status > 299) {
      log.debug(`no ${what} at ${shown} (HTTP ${answer.status})`);
      continue;
    }
    if (!isPlainObject(answer.json)) {
      log.debug(`${shown} answered HTTP ${answer.status} without a JSON object; not ${what}`);
      continue;
    }
    return { url, json: answer.json };
  }
  return undefined;
}

/** The first problem valibot found in a document, in words: a missing field says so, by name. */
export function firstProblem(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  if (!issue) return "it does not fit the format";
  const key = issuePath(issue);
  if (issue.type === "object" && key && issue.input === undefined) return `"${key}" is missing`;
  return issue.message;
}
