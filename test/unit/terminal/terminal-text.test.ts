import { describe, expect, test } from "bun:test";
import { alignColumns, sanitizeForTerminal } from "../../../src/terminal/terminal-text.ts";

const ESC = "\u001b";
/** What must never reach a terminal from hostile text: controls (but newline and tab), DEL, C1, bidi controls. */
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("sanitizeForTerminal removes escape sequences whole", () => {
  const sequences: [string, string][] = [
    ["SGR colour", `${ESC}[31mred${ESC}[0m`],
    ["clear screen", `${ESC}[2Jred`],
    ["private mode (alternate screen)", `${ESC}[?1049hred`],
    ["CSI with an intermediate byte (cursor shape)", `${ESC}[1 qred`],
    ["CSI with colon parameters", `${ESC}[38:2:1:2:3mred`],
    ["OSC title ended by BEL", `${ESC}]0;pwned\u0007red`],
    ["OSC title ended by ST", `${ESC}]2;pwned${ESC}\\red`],
    ["OSC 52 clipboard write", `${ESC}]52;c;cm0gLXJmIH4=\u0007red`],
    ["DCS", `${ESC}Pq#0;2;0;0;0${ESC}\\red`],
    ["APC, PM and SOS", `${ESC}_a${ESC}\\${ESC}^b${ESC}\\${ESC}Xc${ESC}\\red`],
    ["full reset (RIS)", `${ESC}cred`],
    ["cursor save and restore", `${ESC}7red${ESC}8`],
  ];
  for (const [what, input] of sequences) {
    test(`${what}: nothing of it is left`, () => {
      expect(sanitizeForTerminal(input)).toBe("red");
    });
  }

  test("an OSC 8 hyperlink keeps its visible text only", () => {
    expect(sanitizeForTerminal(`see ${ESC}]8;;https://evil.example${ESC}\\the docs${ESC}]8;;${ESC}\\.`)).toBe("see the docs.");
  });

  test("a string sequence that never ends hides nothing: it loses its ESC, the rest is text", () => {
    expect(sanitizeForTerminal(`safe${ESC}]0;title with no end`)).toBe("safe]0;title with no end");
    expect(sanitizeForTerminal(`a${ESC}]0;t\u0007b${ESC}Pq\u0007rest`)).toBe("abPqrest");
  });
});

describe("sanitizeForTerminal hides nothing behind an 8-bit introducer", () => {
  test("C1 codes (which JSON.stringify leaves raw) go, and the rest is shown", () => {
    expect(sanitizeForTerminal("\u009b2Jred")).toBe("2Jred");
    expect(sanitizeForTerminal("\u009d0;pwned\u0007red")).toBe("0;pwnedred");
  });

  test("a permission question shows the whole command: ls \\u009d; rm -rf ~", () => {
    const shown = sanitizeForTerminal(JSON.stringify({ command: "ls \u009d; rm -rf ~" }));
    expect(shown).toBe('{"command":"ls ; rm -rf ~"}');
  });
});

describe("sanitizeForTerminal removes control characters", () => {
  test("BEL, CR, backspace, DEL, C1 and a lone ESC at the end go", () => {
    expect(sanitizeForTerminal(`a\u0007b\rc\bd\u007fe\u0085f\u009cg${ESC}`)).toBe("abcdefg");
  });

  test("bidi embeddings, overrides, isolates and marks go (Trojan Source)", () => {
    const input = "ls \u202e\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c-la";
    expect(sanitizeForTerminal(input)).toBe("ls -la");
  });

  test("newlines and tabs become spaces, or stay with keepNewlines", () => {
    expect(sanitizeForTerminal("a\nb\tc")).toBe("a b c");
    expect(sanitizeForTerminal("a\r\nb\tc", { keepNewlines: true })).toBe("a\nb\tc");
  });

  test("text without controls is unchanged: CJK, emoji with modifiers, combining marks, Arabic", () => {
    const text = "你好 👍🏽 👩‍👩‍👧 e\u0301 مرحبا [not an escape] ~ \\";
    expect(sanitizeForTerminal(text)).toBe(text);
  });

  test("random bytes never leave a control or bidi character behind", () => {
    const alphabet = [ESC, "[", "]", "P", "\\", "\u0007", "\u009b", "\u009d", "\u0090", "\u009c", "\u202e", "\u2066", "\r", "\n", "0", ";", "m", "?", "a", "好"];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const input = Array.from({ length: 40 }, () => alphabet[next() % alphabet.length]).join("");
      expect(sanitizeForTerminal(input)).not.toMatch(UNSAFE);
      expect(sanitizeForTerminal(input, { keepNewlines: true })).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
  });
});

describe("alignColumns", () => {
  test("pads to terminal columns: a CJK character or an emoji takes two", () => {
    const lines = alignColumns([
      ["你好", "wide"],
      ["ab", "narrow"],
      ["😀x", "emoji"],
    ]);
    expect(lines).toEqual(["你好  wide", "ab    narrow", "😀x   emoji"]);
    const columns = lines.map((line) => Bun.stringWidth(line.slice(0, line.lastIndexOf("  ") + 2)));
    expect(new Set(columns).size).toBe(1);
  });

  test("the last column is not padded and trailing space is trimmed", () => {
    expect(alignColumns([["a", ""], ["bbb", "x"]])).toEqual(["a", "bbb  x"]);
  });
});
