/**
 * The colours of rendered Markdown, as plain SGR sequences. cli-highlight's defaults (chalk) decide
 * on colour by themselves, from the environment at the moment they load; here the REPL has decided
 * already (a terminal, no NO_COLOR), so the styles are fixed.
 */
const sgr = (open: number | string, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const bold = sgr(1, 22);
const dim = sgr(2, 22);
const italic = sgr(3, 23);
const underline = sgr(4, 24);
const strike = sgr(9, 29);
const red = sgr(31, 39);
const green = sgr(32, 39);
const yellow = sgr(33, 39);
const blue = sgr(34, 39);
const magenta = sgr(35, 39);
const cyan = sgr(36, 39);
const gray = sgr(90, 39);
const plain = (text: string) => text;

/** How each part of an answer in Markdown looks. */
export const MARKDOWN_STYLES = {
  /** A code block that could not be highlighted. */
  code: yellow,
  codespan: yellow,
  blockquote: (text: string) => gray(italic(text)),
  html: gray,
  heading: (text: string) => green(bold(text)),
  firstHeading: (text: string) => magenta(underline(bold(text))),
  strong: bold,
  em: italic,
  del: (text: string) => dim(strike(text)),
  /** A link's address, and an address written as itself. */
  href: (text: string) => blue(underline(text)),
  /** Rules, table frames, list markers of nested lists. */
  frame: dim,
  /** A table's header cells, and the keys of a table shown row by row. */
  tableHeader: bold,
};

/** cli-highlight's theme for code blocks: highlight.js classes to styles. */
export const CODE_THEME: Record<string, (text: string) => string> = {
  keyword: blue,
  built_in: cyan,
  type: cyan,
  literal: blue,
  number: green,
  regexp: red,
  string: red,
  subst: plain,
  symbol: plain,
  class: blue,
  function: yellow,
  title: plain,
  params: plain,
  comment: green,
  doctag: green,
  meta: gray,
  "meta-keyword": plain,
  "meta-string": plain,
  section: plain,
  tag: gray,
  name: blue,
  attr: cyan,
  attribute: cyan,
  variable: plain,
  bullet: plain,
  code: plain,
  emphasis: italic,
  strong: bold,
  formula: plain,
  link: underline,
  quote: plain,
  addition: green,
  deletion: red,
  default: plain,
};
