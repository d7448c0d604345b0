/** `bun run test:stress` names what failed from `bun test`'s report: each test once, with its file. */
import { describe, expect, test } from "bun:test";
import { summarize } from "../../../scripts/stress/test-run.ts";

const REPORT = `
test/a.test.ts:
(pass) ok [0.08ms]
(fail) group > slow one [122.43ms]

test/b.test.ts:
error: expect(received).toBe(expected)
(fail) without a duration
# Unhandled error between tests
-------------------------------

1 tests failed:
(fail) group > slow one [122.43ms]

 1 pass
 2 fail
 3 expect() calls
Ran 3 tests across 2 files. [35.00ms]
`;

describe("the stress run's summary of one bun test run", () => {
  test("names each failed test once, under its file, with the counts", () => {
    expect(summarize(REPORT, 1, 12)).toEqual({
      exitCode: 1,
      passed: 1,
      failed: 2,
      failures: ["test/a.test.ts > group > slow one", "test/b.test.ts > without a duration", "test/b.test.ts: unhandled error between tests"],
      seconds: 12,
    });
  });

  test("a run that fails without naming a test (a crash, a kill) still counts as failed, with its exit code", () => {
    expect(summarize("test/a.test.ts:\n(pass) ok [1ms]\n", 137, 1).failures).toEqual(["the test command exited with code 137 without naming a test"]);
  });

  test("a green run names nothing", () => {
    expect(summarize("test/a.test.ts:\n(pass) ok [1ms]\n\n 1 pass\n 0 fail\n", 0, 1)).toMatchObject({ passed: 1, failed: 0, failures: [] });
  });
});
