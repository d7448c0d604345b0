import { expect, test } from "bun:test";
import * as v from "valibot";
import { describeIssue, issuePath } from "../../../src/system/schema-issue.ts";

const Schema = v.object({ servers: v.array(v.object({ name: v.string("must be a string") })) }, "must be an object");
const firstIssue = (input: unknown) => {
  const parsed = v.safeParse(Schema, input);
  if (parsed.success) throw new Error("expected an issue");
  return parsed.issues[0];
};

test("an issue inside the input names its path; one about the input itself, only its message", () => {
  const nested = firstIssue({ servers: [{ name: "a" }, { name: 2 }] });
  expect(issuePath(nested)).toBe("servers.1.name");
  expect(describeIssue(nested)).toBe("servers.1.name: must be a string");
  const whole = firstIssue("text");
  expect(issuePath(whole)).toBe("");
  expect(describeIssue(whole)).toBe("must be an object");
});
