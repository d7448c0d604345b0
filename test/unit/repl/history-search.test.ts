import { expect, test } from "bun:test";
import { HistorySearch } from "../../../src/repl/history-search.ts";
import { LineHistory } from "../../../src/repl/line-history.ts";

const history = () => new LineHistory(["git status", "npm test", "git log --oneline", "echo done", "git diff"]);

test("typing narrows to the newest line containing it; Ctrl-R again goes older; at the oldest the search fails and stays", () => {
  const search = new HistorySearch(history(), { text: "draft", cursor: 5 });
  expect(search.view()).toEqual({ prompt: "(reverse-i-search)`': ", text: "draft", cursor: 5 });
  search.type("gi");
  expect(search.view()).toEqual({ prompt: "(reverse-i-search)`gi': ", text: "git diff", cursor: 0 });
  search.type("t l");
  expect(search.match).toBe("git log --oneline");
  search.backspace();
  search.backspace();
  search.older();
  expect(search.match).toBe("git log --oneline");
  search.older();
  expect(search.match).toBe("git status");
  search.older();
  expect(search.view()).toMatchObject({ prompt: "(failed reverse-i-search)`git': ", text: "git status" });
});

test("the cursor stands where the match is; a lower-case query matches any case, one with capitals only itself", () => {
  const search = new HistorySearch(new LineHistory(["Deploy NOW", "deploy later"]), { text: "", cursor: 0 });
  search.type("now");
  expect(search.view()).toMatchObject({ text: "Deploy NOW", cursor: 7 });
  const exact = new HistorySearch(new LineHistory(["Deploy NOW", "deploy later"]), { text: "", cursor: 0 });
  exact.type("Dep");
  expect(exact.match).toBe("Deploy NOW");
  exact.type("x");
  expect(exact.view().prompt).toBe("(failed reverse-i-search)`Depx': ");
});

test("nothing found: the line typed before is what is shown; a duplicate in the history file is skipped by Ctrl-R", () => {
  const search = new HistorySearch(new LineHistory(["same", "other", "same"]), { text: "mine", cursor: 2 });
  search.type("zzz");
  expect(search.view()).toMatchObject({ text: "mine", cursor: 2 });
  const dup = new HistorySearch(new LineHistory(["same", "other", "same"]), { text: "", cursor: 0 });
  dup.type("s");
  dup.older();
  expect(dup.view().prompt).toContain("failed");
});
