import { describe, expect, test } from "bun:test";
import { StatusLine } from "../../../src/terminal/status-line.ts";
import { WorkStatus } from "../../../src/terminal/work-status.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";

function terminal(isTTY = true, columns = 80) {
  const writes: string[] = [];
  return { writes, isTTY, columns, write: (text: string) => writes.push(text), last: () => writes.at(-1) ?? "" };
}

function workStatus(out = terminal()) {
  const clock = new FakeClock();
  return { out, clock, status: new WorkStatus(new StatusLine(out), { clock }) };
}

describe("the status line while a turn works", () => {
  test("a spinner that turns, what is happening and the seconds since the turn began", () => {
    const { out, clock, status } = workStatus();
    status.show();
    expect(out.last()).toBe("\r\u001b[J ⠋ thinking · 0 s\r");
    clock.advance(100);
    expect(out.last()).toContain("⠙ thinking · 0 s");
    clock.advance(2_000);
    expect(out.last()).toMatch(/ thinking · 2 s\r$/);
    status.set("running mcp__github__search_issues", "3/10 indexing…");
    expect(out.last()).toContain("running mcp__github__search_issues 3/10 indexing… · 2 s");
  });

  test("tokens in and out for the turn, added up over its requests", () => {
    const { out, status } = workStatus();
    status.show();
    status.addTokens(1200, 40);
    status.addTokens(2_500_000, 300);
    expect(out.last()).toContain("↑ 2.5M ↓ 340");
  });

  test("a retry counts down", () => {
    const { out, clock, status } = workStatus();
    status.show();
    status.retryIn(3_000);
    expect(out.last()).toContain("retrying in 3 s");
    clock.advance(1_100);
    expect(out.last()).toContain("retrying in 2 s");
    status.set("thinking");
    expect(out.last()).toContain("⠙ thinking");
  });

  test("hidden, it is erased and stops ticking; nothing is drawn until shown again", () => {
    const { out, clock, status } = workStatus();
    status.show();
    status.hide();
    expect(out.last()).toBe("\r\u001b[J");
    const count = out.writes.length;
    clock.advance(5_000);
    status.set("running x");
    expect(out.writes.length).toBe(count);
    expect(clock.pending()).toBe(0);
    status.show();
    expect(out.last()).toContain("running x · 5 s");
  });

  test("its timer never keeps the process alive", () => {
    const { clock, status } = workStatus();
    status.show();
    expect(clock.pending()).toBe(1);
    expect(clock.pending({ referenced: true })).toBe(0);
  });

  test("not on a terminal it draws nothing and sets no timer", () => {
    const { out, clock, status } = workStatus(terminal(false));
    status.show();
    status.set("thinking");
    expect(out.writes).toEqual([]);
    expect(clock.pending()).toBe(0);
  });

  test("a resize redraws it at the new width from the line's start, so nothing of the old line is left", () => {
    const listeners: (() => void)[] = [];
    const out = { ...terminal(true, 120), on: (_: "resize", l: () => void) => listeners.push(l), off: () => listeners.pop() };
    const clock = new FakeClock();
    const status = new WorkStatus(new StatusLine(out), { clock });
    status.set(`running ${"x".repeat(200)}`);
    status.show();
    expect(Bun.stringWidth(out.writes.at(-1)!)).toBeLessThanOrEqual(120);
    out.columns = 40;
    for (const listener of listeners) listener();
    const redrawn = out.writes.at(-1)!;
    expect(redrawn.startsWith("\r\u001b[J")).toBe(true);
    expect(Bun.stringWidth(redrawn)).toBeLessThanOrEqual(40);
    status.hide();
    expect(listeners.length).toBe(0);
  });
});
