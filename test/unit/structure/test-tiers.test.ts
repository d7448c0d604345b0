import { expect, test } from "bun:test";
import { relative } from "node:path";
import { misplacedTests } from "../../../scripts/place-tests.ts";
import { ROOT } from "../../../scripts/test-tier.ts";

/**
 * The tier is in the path (test/README.md): a file under test/unit starts no process and meets no
 * peer; one that spawns cat-code is under test/process, and so on. A new test written in the wrong
 * place (or in an old area folder such as test/cli/) is named here with where it belongs.
 */
test("every test file is in the tier its contents say", () => {
  const misplaced = [...misplacedTests()].map(([from, to]) => `${relative(ROOT, from)} belongs in ${relative(ROOT, to)}`);
  // `bun scripts/place-tests.ts` moves them (git mv) and fixes the paths that pointed at them.
  expect(misplaced).toEqual([]);
});
