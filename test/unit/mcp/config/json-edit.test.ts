import { describe, expect, test } from "bun:test";
import { ConfigError } from "../../../../src/config/config-error.ts";
import { propertyNames, readProperty, removeProperty, setProperty } from "../../../../src/config/json-edit.ts";

const entry = { command: "./echo-server.sh", args: ["-y"] };

describe("setProperty", () => {
  test("empty text becomes a new document, two-space indented, ending in a newline", () => {
    expect(setProperty("", ["mcpServers", "echo"], { command: "x" })).toBe('{\n  "mcpServers": {\n    "echo": {\n      "command": "x"\n    }\n  }\n}\n');
  });

  test("a new entry goes after the last one, indented like it; every other byte is kept", () => {
    const before = '{\n    "theme":   "dark",\n    "mcpServers": {\n        "a": {"command": "x"}\n    },\n    "z": [1,2]\n}\n';
    const after = setProperty(before, ["mcpServers", "new"], { command: "c" });
    expect(after).toBe('{\n    "theme":   "dark",\n    "mcpServers": {\n        "a": {"command": "x"},\n        "new": {\n            "command": "c"\n        }\n    },\n    "z": [1,2]\n}\n');
  });

  test("a file without mcpServers gets it as its last property", () => {
    expect(setProperty('{\n  "other": 1\n}\n', ["mcpServers", "a"], { command: "c" })).toBe(
      '{\n  "other": 1,\n  "mcpServers": {\n    "a": {\n      "command": "c"\n    }\n  }\n}\n',
    );
  });

  test("an empty object is filled; a one-line object stays on one line", () => {
    expect(setProperty('{"mcpServers": {}}', ["mcpServers", "a"], 1)).toBe('{"mcpServers": {\n  "a": 1\n}}');
    expect(setProperty('{"mcpServers": {"a": 1}}', ["mcpServers", "b"], { c: 2 })).toBe('{"mcpServers": {"a": 1, "b": {"c":2}}}');
  });

  test("tabs and CRLF line endings are kept", () => {
    const before = '{\r\n\t"mcpServers": {\r\n\t\t"a": 1\r\n\t}\r\n}\r\n';
    expect(setProperty(before, ["mcpServers", "b"], { c: 2 })).toBe('{\r\n\t"mcpServers": {\r\n\t\t"a": 1,\r\n\t\t"b": {\r\n\t\t\t"c": 2\r\n\t\t}\r\n\t}\r\n}\r\n');
  });

  test("an existing value is replaced in place", () => {
    expect(setProperty('{"p": {"a": {"d": "approved"}, "b": 2}}', ["p", "a"], { d: "denied" })).toBe('{"p": {"a": {\n  "d": "denied"\n}, "b": 2}}');
  });

  test("text that is not a JSON object is refused with line and column", () => {
    expect(() => setProperty('{\n  "mcpServers": {,\n}', ["mcpServers", "a"], 1)).toThrow(/not valid JSON: .* at line 2, column 18/);
    expect(() => setProperty("[1]", ["mcpServers", "a"], 1)).toThrow("the top level must be an object");
    expect(() => setProperty('{"mcpServers": []}', ["mcpServers", "a"], 1)).toThrow(ConfigError);
  });
});

describe("removeProperty", () => {
  const three = '{\n  "mcpServers": {\n    "a": {"command": "x"},\n    "b": {"command": "y"},\n    "c": {"command": "z"}\n  },\n  "keep": true\n}\n';

  test("the first, a middle and the last entry go with their comma and line, nothing else", () => {
    expect(removeProperty(three, ["mcpServers", "a"])).toBe('{\n  "mcpServers": {\n    "b": {"command": "y"},\n    "c": {"command": "z"}\n  },\n  "keep": true\n}\n');
    expect(removeProperty(three, ["mcpServers", "b"])).toBe('{\n  "mcpServers": {\n    "a": {"command": "x"},\n    "c": {"command": "z"}\n  },\n  "keep": true\n}\n');
    expect(removeProperty(three, ["mcpServers", "c"])).toBe('{\n  "mcpServers": {\n    "a": {"command": "x"},\n    "b": {"command": "y"}\n  },\n  "keep": true\n}\n');
  });

  test("the only entry leaves an empty object", () => {
    expect(removeProperty('{"mcpServers": {\n  "a": 1\n}, "x": 2}', ["mcpServers", "a"])).toBe('{"mcpServers": {}, "x": 2}');
  });

  test("adding then removing gives back the original bytes", () => {
    for (const original of [three, '{"mcpServers": {}}', '{"mcpServers": {"a": 1}}', '{\r\n\t"mcpServers": {\r\n\t\t"a": 1\r\n\t}\r\n}\r\n']) {
      expect(removeProperty(setProperty(original, ["mcpServers", "new"], entry), ["mcpServers", "new"])).toBe(original);
    }
  });
});

describe("reading", () => {
  test("propertyNames and readProperty see what is there", () => {
    const text = '{"mcpServers": {"a": {"command": "x"}, "b": 2}}';
    expect(propertyNames(text, ["mcpServers"])).toEqual(["a", "b"]);
    expect(propertyNames("", ["mcpServers"])).toEqual([]);
    expect(readProperty(text, ["mcpServers", "a"])).toEqual({ command: "x" });
    expect(readProperty(text, ["nope"])).toBeUndefined();
  });
});
