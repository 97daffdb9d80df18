// The runnable examples of a markdown file: its fenced code blocks and the products table's
// GraphQL and tRPC cells, each with where it is, so a failure names the line to fix.
//
// A block preceded (blank lines aside) by `<!-- not-run: <why> -->` is excluded on purpose: an
// install command, `npm start`, a client configuration. Blocks without a language (diagrams,
// layouts) are text, not examples.

export interface Block {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  /** The reason given by a `<!-- not-run: … -->` marker, when there is one. */
  notRun?: string;
}

export interface TableExample {
  file: string;
  line: number;
  operation: string;
  graphql: string;
  trpc: string;
}

const NOT_RUN = /^<!--\s*not-run:\s*(.+?)\s*-->$/;

export function fencedBlocks(file: string, markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith(fence)) body.push(lines[j++]!);
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === "") k--;
    const marker = k >= 0 ? NOT_RUN.exec(lines[k]!.trim()) : null;
    blocks.push({ file, line: i + 1, lang: open[2]!.toLowerCase(), code: body.join("\n"), ...(marker ? { notRun: marker[1]! } : {}) });
    i = j;
  }
  return blocks;
}

/** The first `code span` of a table cell, `` `a` `` or ``` `` a `` ```. */
function firstCodeSpan(cell: string): string | undefined {
  const match = /(`+)\s?(.+?)\s?\1(?!`)/.exec(cell);
  return match?.[2];
}

/** Rows of the table whose header is `| operation | GraphQL | tRPC |`. */
export function productTable(file: string, markdown: string): TableExample[] {
  const lines = markdown.split("\n");
  const header = lines.findIndex((l) => /^\|\s*operation\s*\|\s*GraphQL\s*\|\s*tRPC\s*\|/.test(l));
  if (header < 0) return [];
  const rows: TableExample[] = [];
  for (let i = header + 2; i < lines.length && lines[i]!.startsWith("|"); i++) {
    // Split on cell pipes, not on pipes inside code spans (none of the examples has one).
    const cells = lines[i]!.split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    const graphql = firstCodeSpan(cells[1] ?? "");
    const trpc = firstCodeSpan(cells[2] ?? "");
    if (!graphql || !trpc) throw new Error(`${file}:${i + 1}: a products table row needs a GraphQL and a tRPC code span`);
    rows.push({ file, line: i + 1, operation: cells[0] ?? "", graphql, trpc });
  }
  return rows;
}
