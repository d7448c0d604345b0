import { expect, test } from "bun:test";
import { CompletionMenu, MENU_ROWS, type MenuAnswer } from "../../../src/repl/completion-menu.ts";

/** The promise callbacks queued so far have run (the source's answers are plain promises). */
const settled = () => new Promise((resolve) => setImmediate(resolve));
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `/c${i}`, description: `command ${i}` }));

test("rows: the selection marked, descriptions aligned, cut to the terminal; past five rows it scrolls with the selection", () => {
  const menu = new CompletionMenu(() => {});
  menu.show({ word: "/", items: [{ value: "/help", description: "Show this list" }, { value: "/mcp", description: "x".repeat(200) }] });
  const rows = menu.rows(40);
  expect(rows[0]).toBe("› /help  Show this list");
  expect(rows[1]).toMatch(/^ {2}\/mcp {3}x+…$/);
  expect(Bun.stringWidth(rows[1]!)).toBeLessThanOrEqual(39);
  menu.show({ word: "/", items: items(8) });
  expect(menu.rows(80)).toHaveLength(MENU_ROWS + 1);
  for (let i = 0; i < 6; i++) menu.move(1);
  const scrolled = menu.rows(80);
  expect(scrolled[0]).toStartWith("  /c2");
  expect(scrolled[4]).toStartWith("› /c6");
  expect(scrolled[5]).toContain("8 in all");
  expect(menu.choice()?.item.value).toBe("/c6");
  menu.move(3);
  expect(menu.choice()?.item.value).toBe("/c1");
});

test("update asks one question at a time; the line typed last is asked next and an answer for an old line is dropped", async () => {
  const asked: string[] = [];
  const answers: Array<(answer: MenuAnswer) => void> = [];
  let changes = 0;
  const menu = new CompletionMenu(() => changes++);
  menu.use((line) => {
    asked.push(line);
    return new Promise((resolve) => answers.push(resolve));
  });
  menu.update("/");
  menu.update("/h");
  menu.update("/he");
  expect(asked).toEqual(["/"]);
  answers[0]!({ word: "/", items: items(3) });
  await settled();
  // The answer for "/" was not shown: "/he" was typed since, and is asked now.
  expect([asked, changes, menu.open]).toEqual([["/", "/he"], 0, false]);
  answers[1]!({ word: "/he", items: [{ value: "/help", description: "" }] });
  await settled();
  expect([changes, menu.open]).toEqual([1, true]);
  menu.update("/hel");
  expect(menu.dismiss()).toBe(true);
  answers[2]!({ word: "/hel", items: [{ value: "/help", description: "" }] });
  await settled();
  expect(menu.open).toBe(false);
});
