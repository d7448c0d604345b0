import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Machine } from "./machine.ts";

/** One benchmark's part of the document: a heading, what was measured, a table, and notes. */
export interface Section {
  title: string;
  /** What was measured and how, in a sentence or two. */
  method: string;
  /** Header row first. */
  table: string[][];
  /** The targets and whether each was met, one line each. */
  verdicts: string[];
  notes?: string[];
}

/**
 * The benchmark document, rewritten after every benchmark, so numbers are published as they come
 * and a run that dies half-way still leaves what it measured.
 */
export class Report {
  private readonly sections: Section[] = [];
  private readonly headline: string[] = [];

  constructor(
    private readonly path: string,
    private readonly machine: Machine,
    private readonly settings: string,
    /** Markdown put after the sections: what was changed for speed, and what each change gained. */
    private readonly trailer = "",
  ) {}

  add(section: Section, headline?: string): void {
    this.sections.push(section);
    if (headline) this.headline.push(headline);
    this.write();
  }

  write(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(this.path, this.render());
  }

  private render(): string {
    const m = this.machine;
    const lines = [
      "# Benchmarks",
      "",
      "Written by `bun run bench` (`scripts/bench.ts`); do not edit by hand. Contenders of one benchmark run",
      "in the same run, interleaved round by round with the first one rotating, on a shared and noisy",
      "machine: read the ratios (the median over rounds of the ratio within each round) more than the",
      "absolute numbers. Misses are published as they are.",
      "",
      `- Machine: ${m.cpu}, ${m.cores} cores, ${m.memory}, ${m.os}`,
      `- Versions: Bun ${m.bun}, Node ${m.node}, cat-code ${m.catCode}, @modelcontextprotocol/sdk ${m.sdk}, @modelcontextprotocol/server-everything ${m.serverEverything}`,
      `- Run: ${m.date}, ${this.settings}`,
      "",
    ];
    if (this.headline.length) lines.push("## Headline", "", ...this.headline.map((h) => `- ${h}`), "");
    for (const section of this.sections) {
      lines.push(`## ${section.title}`, "", section.method, "", ...markdownTable(section.table), "");
      lines.push(...section.verdicts.map((v) => `- ${v}`), "");
      if (section.notes?.length) lines.push(...section.notes.map((n) => `${n}`), "");
    }
    if (this.trailer) lines.push(this.trailer);
    return `${lines.join("\n").trimEnd()}\n`;
  }
}

function markdownTable(rows: string[][]): string[] {
  const [header, ...body] = rows;
  if (!header) return [];
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map((_, i) => (i === 0 ? "---" : "---:"))), ...body.map(line)];
}
