import type * as v from "valibot";

/** Where in the input a schema's issue is, as `a.b.0`; "" for the input itself. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  return issue.path?.map((item) => String(item.key)).join(".") ?? "";
}

/** A schema's issue as "path: message" (the message alone for the input itself), for an error that names what was wrong. */
export function describeIssue(issue: v.BaseIssue<unknown>): string {
  const where = issuePath(issue);
  return where ? `${where}: ${issue.message}` : issue.message;
}
