import type { Token, Tokens } from "marked";

/** Bullets by depth, as in most terminals' Markdown: the third and deeper alike. */
const BULLETS = ["•", "◦", "▪"];

/**
 * A list's rows: each item's marker (`1.`, `•`), its text beside it and wrapped under its text,
 * nested lists under their item's text, numbered from their own start. Items follow each other
 * without blank rows whatever the source's spacing, so that rows already shown of a list still
 * growing are the rows it has once whole. `renderChild` renders an item's other blocks.
 */
export function renderList(list: Tokens.List, width: number, renderChild: (token: Token, width: number) => string[], depth = 0): string[] {
  const start = typeof list.start === "number" ? list.start : 1;
  return list.items.flatMap((item, i) => {
    let marker = list.ordered ? `${start + i}.` : (BULLETS[Math.min(depth, BULLETS.length - 1)] ?? "•");
    if (item.task) marker += item.checked ? " [x]" : " [ ]";
    const indent = " ".repeat(Bun.stringWidth(marker) + 1);
    const room = Math.max(10, width - indent.length);
    const rows = itemRows(item, room, renderChild, depth);
    if (rows.length === 0) return [marker];
    return rows.map((row, j) => (j === 0 ? `${marker} ${row}` : row === "" ? "" : indent + row));
  });
}

function itemRows(item: Tokens.ListItem, width: number, renderChild: (token: Token, width: number) => string[], depth: number): string[] {
  const rows: string[] = [];
  let previous: Token | undefined;
  for (const child of item.tokens) {
    if (child.type === "checkbox" || child.type === "space") continue;
    const block = child.type === "list" ? renderList(child as Tokens.List, width, renderChild, depth + 1) : renderChild(child, width);
    if (block.length === 0) continue;
    // Blocks of one item are set apart by a blank row, a nested list never: the same whether or
    // not the list is loose, which marked may decide only at its end (a list streams).
    if (previous && child.type !== "list" && previous.type !== "list") rows.push("");
    rows.push(...block);
    previous = child;
  }
  return rows;
}
