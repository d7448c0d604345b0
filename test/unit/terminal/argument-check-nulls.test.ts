import { expect, test } from "bun:test";
import { checkArguments } from "../../../src/terminal/argument-check.ts";

/** The conformance suite's http-custom-headers tool, cut down: `verbose` is optional and marked. */
const schema = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    verbose: { type: "boolean", "x-mcp-header": "Verbose" },
  },
  required: ["region"],
};

test("null on an argument that is not required counts as left out", () => {
  expect(() => checkArguments({ region: "us-west1", verbose: null }, schema)).not.toThrow();
});

test("null on a required argument is still refused, naming it", () => {
  expect(() => checkArguments({ region: null }, schema)).toThrow("argument 'region': expected string, got null");
});

test("the arguments themselves are not changed: the null is sent as given", () => {
  const args = { region: "us-west1", verbose: null };
  checkArguments(args, schema);
  expect(args).toEqual({ region: "us-west1", verbose: null });
});
