/** Where a parse error is, as people count: line and column from 1. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** jsonc-parser's error code in words. */
export function describeParseError(code: string): string {
  const words: Record<string, string> = {
    InvalidSymbol: "unexpected character",
    InvalidNumberFormat: "invalid number",
    PropertyNameExpected: "a property name in double quotes was expected",
    ValueExpected: "a value was expected",
    ColonExpected: "':' was expected",
    CommaExpected: "',' was expected",
    CloseBraceExpected: "'}' was expected",
    CloseBracketExpected: "']' was expected",
    EndOfFileExpected: "the file should end here",
    InvalidCommentToken: "comments are not allowed",
    UnexpectedEndOfComment: "unexpected end of comment",
    UnexpectedEndOfString: "unterminated string",
    UnexpectedEndOfNumber: "unexpected end of number",
    InvalidUnicode: "invalid unicode escape",
    InvalidEscapeCharacter: "invalid escape character",
    InvalidCharacter: "invalid character in a string",
  };
  return words[code] ?? code;
}
