import { expect, test } from "bun:test";
import { EXIT_CONFIRM_MS, ExitConfirmation } from "../../../src/repl/exit-confirmation.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";

test("a second Ctrl-C within 2 s exits; after 2 s it asks again", () => {
  const clock = new FakeClock();
  const confirmation = new ExitConfirmation(clock);
  expect(confirmation.press()).toBe("ask");
  clock.advance(EXIT_CONFIRM_MS);
  expect(confirmation.press()).toBe("exit");

  const later = new ExitConfirmation(clock);
  expect(later.press()).toBe("ask");
  clock.advance(EXIT_CONFIRM_MS + 1);
  expect(later.press()).toBe("ask");
  clock.advance(500);
  expect(later.press()).toBe("exit");
});

test("anything in between (a line, a turn) makes the next Ctrl-C a first one", () => {
  const clock = new FakeClock();
  const confirmation = new ExitConfirmation(clock);
  expect(confirmation.press()).toBe("ask");
  confirmation.reset();
  expect(confirmation.press()).toBe("ask");
});

test("Ctrl-D twice exits as Ctrl-C twice does, but one key does not confirm the other", () => {
  const clock = new FakeClock();
  const confirmation = new ExitConfirmation(clock);
  expect(confirmation.press("Ctrl-D")).toBe("ask");
  expect(confirmation.press("Ctrl-C")).toBe("ask");
  expect(confirmation.press("Ctrl-D")).toBe("ask");
  clock.advance(100);
  expect(confirmation.press("Ctrl-D")).toBe("exit");
});
