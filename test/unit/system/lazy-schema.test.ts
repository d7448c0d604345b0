import { expect, test } from "bun:test";
import * as v from "valibot";
import { lazySchema } from "../../../src/system/lazy-schema.ts";

test("a lazy schema is built at its first parse, once, and checks as the schema it builds", () => {
  let builds = 0;
  const Point = lazySchema(() => {
    builds++;
    return v.object({ x: v.number(), y: v.number() });
  });
  expect(builds).toBe(0);
  expect(v.parse(Point, { x: 1, y: 2 })).toEqual({ x: 1, y: 2 });
  expect(v.is(Point, { x: 1, y: "2" })).toBe(false);
  // Inside another schema it is the same one, not built again.
  expect(v.safeParse(v.array(Point), [{ x: 3, y: 4 }]).success).toBe(true);
  expect(builds).toBe(1);
});
