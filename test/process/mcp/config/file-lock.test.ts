import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { breakLock, staleLockToken, withLock } from "../../../../src/config/file-lock.ts";
import { REPO, tempDir } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = Bun.spawn(["true"]);
  await child.exited;
  return child.pid;
}

describe("the lock of a config file", () => {
  test("a lock whose owner died holding it is stale; a live owner's is not", async () => {
    const lock = join(tempDir(), "mcp.json.lock");
    const dead = `${await deadPid()} 1 abc`;
    writeFileSync(lock, dead);
    expect(staleLockToken(lock)).toBe(dead);
    writeFileSync(lock, `${process.pid} 1 def`);
    expect(staleLockToken(lock)).toBeUndefined();
  });

  test("a stale judgement does not break the lock a live writer took meanwhile, even on the same inode", async () => {
    // The race behind the flaky "ten adds" test: a waiter reads the owner's token, the owner
    // releases and exits, a third writer takes a new lock (the file system hands it the freed
    // inode), and the waiter, finding the first owner dead, breaks the lock by inode.
    const lock = join(tempDir(), "mcp.json.lock");
    const dead = `${await deadPid()} 1 abc`;
    writeFileSync(lock, dead);
    const judged = staleLockToken(lock);
    expect(judged).toBe(dead);
    unlinkSync(lock);
    const live = `${process.pid} 2 def`;
    writeFileSync(lock, live);
    // (On ext4 the new lock does get the freed inode: judging by inode broke it; the token tells.)
    breakLock(lock, judged as string);
    expect(readFileSync(lock, "utf8")).toBe(live);
  });

  test("a waiter gives up only when one holder keeps the lock too long, not when a queue of holders does", async () => {
    const target = join(tempDir(), "mcp.json");
    const done = join(tempDir(), "done");
    // Another process takes the lock 40 times, 50 ms each: 2 s in all, each hold far under the 1 s bound.
    const holder = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { withLock } = await import(${JSON.stringify(join(REPO, "src/config/file-lock.ts"))});
         for (let i = 0; i < 40; i++) await withLock(${JSON.stringify(target)}, "f", 60_000, () => { Bun.sleepSync(50); require("node:fs").writeFileSync(${JSON.stringify(done)}, String(i)); });`,
      ],
      { stderr: "inherit" },
    );
    // Wait until the holder is under way, then queue behind it with a 1 s bound.
    await waitFor(() => existsSync(done), "the other process to hold the lock");
    let ran = false;
    await withLock(target, "f", 1_000, () => {
      ran = true;
    });
    expect(ran).toBe(true);
    expect(await holder.exited).toBe(0);
  });
});
