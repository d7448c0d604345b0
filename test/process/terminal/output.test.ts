import { expect, test } from "bun:test";
import { join } from "node:path";
import { run } from "../../helpers/binary.ts";
import { REPO, tempDir } from "../../helpers/paths.ts";

test("printResult writes a large text whole, a newline after it, and never splits a character", async () => {
  const script = join(tempDir(), "print.ts");
  // The emoji (two UTF-16 units) straddles the first 1 MB slice boundary.
  await Bun.write(
    script,
    `import { printResult } from ${JSON.stringify(join(REPO, "src/terminal/output.ts"))};
     await printResult("x".repeat((1 << 20) - 1) + "😀" + "y".repeat(3_000_000));`,
  );
  const { exitCode, stdout } = await run([process.execPath, script]);
  expect(exitCode).toBe(0);
  expect(stdout.length).toBe((1 << 20) - 1 + 2 + 3_000_000 + 1);
  expect(stdout.slice((1 << 20) - 2, (1 << 20) + 3)).toBe("x😀yy");
  expect(stdout.endsWith("y\n")).toBe(true);
});
