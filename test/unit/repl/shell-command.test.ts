import { expect, test } from "bun:test";
import { runShellCommand, SHELL_OUTPUT_LIMIT, ShellContext } from "../../../src/repl/shell-command.ts";
import { plainStyle } from "../../../src/repl/tool-call-line.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { tempDir } from "../../helpers/paths.ts";

function io(signal: AbortSignal) {
  const lines: string[] = [];
  const context = new ShellContext();
  return { lines, context, io: { cwd: tempDir(), signal, print: (line: string) => lines.push(line), style: plainStyle, context } };
}

test("the command runs in the working directory; its output is shown sanitized and kept for the next prompt once", async () => {
  const run = io(new AbortController().signal);
  await runShellCommand("pwd; printf 'red \\033[31mtext\\n'; exit 2", run.io);
  expect(run.lines[0]).toBe(run.io.cwd);
  expect(run.lines[1]).toBe("red text");
  expect(run.lines.at(-1)).toBe("⎿ exit code 2 (the model sees this with your next prompt)");
  const [block] = run.context.take();
  expect(block).toEqual({ type: "text", text: expect.stringContaining(`<command>pwd; printf 'red \\033[31mtext\\n'; exit 2</command>\n<output exit_code="2">\n${run.io.cwd}\nred \u001b[31mtext\n</output>`) });
  expect(run.context.take()).toEqual([]);
});

test("output past the bound is cut with a note; Ctrl-C (abort) ends the command's whole tree", async () => {
  const big = io(new AbortController().signal);
  await runShellCommand(`head -c ${SHELL_OUTPUT_LIMIT + 5000} /dev/zero | tr '\\0' x`, big.io);
  const [block] = big.context.take() as Array<{ text: string }>;
  expect(block?.text).toContain("[output cut: 5,000 more characters not shown]");

  const stop = new AbortController();
  const slow = io(stop.signal);
  const dir = slow.io.cwd;
  const running = runShellCommand("sleep 30 & echo $! > child.pid; wait", slow.io);
  await waitFor(async () => (await Bun.file(`${dir}/child.pid`).exists()) && (await Bun.file(`${dir}/child.pid`).text()).trim() !== "", "the child's pid");
  stop.abort();
  await running;
  const pid = Number((await Bun.file(`${dir}/child.pid`).text()).trim());
  await waitFor(() => !isAlive(pid), "the sleeping child gone");
  expect(slow.lines.at(-1)).toStartWith("⎿ cancelled");
  expect((slow.context.take()[0] as { text: string }).text).toContain('<output cancelled="true">');
});

test("what waits for the next prompt is bounded: the oldest commands go first", () => {
  const context = new ShellContext();
  for (let i = 0; i < 10; i++) context.add(`${i}:${"x".repeat(20_000)}`);
  const kept = context.take().map((block) => (block as { text: string }).text.split(":")[0]);
  expect(kept).toEqual(["8", "9"]);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
