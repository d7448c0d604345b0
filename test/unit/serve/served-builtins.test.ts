/**
 * `mcp serve --builtin`: cat-code's own tools for another client, with no terminal to ask on. A
 * read inside the project runs; a call that needs permission runs only under an allow rule; a deny
 * rule always holds; a refusal names the rule to add.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionRules } from "../../../src/agent/permission-rules.ts";
import { ServedBuiltins } from "../../../src/serve/served-builtins.ts";
import { tempDir } from "../../helpers/paths.ts";

const signal = new AbortController().signal;
const text = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((block) => block.text ?? "").join("");

function builtins(rules: PermissionRules = { allow: [], deny: [] }) {
  const cwd = tempDir();
  writeFileSync(join(cwd, "notes.txt"), "hello from the project\n");
  return { cwd, served: new ServedBuiltins(cwd, () => rules) };
}

test("the six tools are listed under their own names, read-only ones marked", () => {
  const { served } = builtins();
  const names = served.definitions().map((tool) => tool.name);
  expect(names.sort()).toEqual(["bash", "edit_file", "glob", "grep", "read_file", "write_file"]);
  expect(served.definitions().find((tool) => tool.name === "read_file")?.annotations?.readOnlyHint).toBe(true);
});

test("a read inside the project runs without a rule", async () => {
  const { served } = builtins();
  const result = await served.call("read_file", { path: "notes.txt" }, signal);
  expect(result.isError).toBe(false);
  expect(text(result)).toContain("hello from the project");
});

test("a call that needs permission is refused without an allow rule, saying there is no terminal and which rule to add", async () => {
  const { cwd, served } = builtins();
  const result = await served.call("bash", { command: "touch made-by-bash" }, signal);
  expect(result.isError).toBe(true);
  expect(text(result)).toContain("no terminal to ask on");
  expect(text(result)).toContain('"Bash(');
  expect(existsSync(join(cwd, "made-by-bash"))).toBe(false);
});

test("an allow rule lets the call run", async () => {
  const { cwd, served } = builtins({ allow: ["Write"], deny: [] });
  const result = await served.call("write_file", { path: "out.txt", content: "written" }, signal);
  expect(result.isError).toBe(false);
  expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("written");
});

test("a deny rule holds even for a read that needs no permission", async () => {
  const { served } = builtins({ allow: [], deny: ["Read(notes.txt)"] });
  const result = await served.call("read_file", { path: "notes.txt" }, signal);
  expect(result.isError).toBe(true);
  expect(text(result)).toContain("Read(notes.txt)");
});
