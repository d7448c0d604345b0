import { expect, test } from "bun:test";
import * as v from "valibot";
import { KeeperRequest, LaunchContext } from "../../../src/keeper/keeper-protocol.ts";

/** What arrives is parsed from a line, as the keeper parses it: own keys of any name. */
const arriving = (json: string) => JSON.parse(json) as unknown;

test("a call's arguments are kept whole: names an object's prototype has are arguments like any other", () => {
  const line = '{"op":"call","server":"s","tool":"t","arguments":{"prototype":"x","constructor":"y","__proto__":{"z":1}},"elicitation":"decline"}';
  const parsed = v.parse(KeeperRequest, arriving(line)) as Extract<KeeperRequest, { op: "call" }>;
  expect(JSON.stringify(parsed.arguments)).toBe('{"prototype":"x","constructor":"y","__proto__":{"z":1}}');
  const array = v.safeParse(KeeperRequest, arriving('{"op":"call","server":"s","tool":"t","arguments":[1],"elicitation":"decline"}'));
  expect(array.success ? undefined : array.issues[0].message).toBe("must be an object");
});

test("a launch environment keeps every variable, and refuses a value that is not a string", () => {
  const parsed = v.parse(LaunchContext, arriving('{"env":{"constructor":"c","prototype":"p","__proto__":"q","PATH":"/bin"},"cwd":"/"}'));
  expect(JSON.stringify(parsed.env)).toBe('{"constructor":"c","prototype":"p","__proto__":"q","PATH":"/bin"}');
  const number = v.safeParse(LaunchContext, arriving('{"env":{"PATH":1},"cwd":"/"}'));
  expect(number.success ? undefined : number.issues[0].message).toBe("must be an object of strings");
});
