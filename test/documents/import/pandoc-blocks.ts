// pandoc's reading of a .docx, counted by block kind (the round-trip property of issue 16).
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const COUNTED = ["Header", "Table", "BulletList", "OrderedList", "CodeBlock"] as const;
export type BlockCounts = Record<(typeof COUNTED)[number], number>;

interface Node {
  t?: string;
  c?: unknown;
}

function count(value: unknown, counts: BlockCounts): void {
  if (Array.isArray(value)) {
    for (const item of value) count(item, counts);
  } else if (value && typeof value === "object") {
    const node = value as Node;
    if (typeof node.t === "string" && node.t in counts) counts[node.t as keyof BlockCounts]++;
    if ("c" in node) count(node.c, counts);
    else if (!("t" in node)) for (const v of Object.values(value)) count(v, counts);
  }
}

export async function pandocBlocks(pandoc: string, docx: Uint8Array): Promise<BlockCounts> {
  const dir = await mkdtemp(join(tmpdir(), "wg-import-"));
  try {
    const file = join(dir, "in.docx");
    await writeFile(file, docx);
    const { stdout } = await run(pandoc, ["-f", "docx", "-t", "json", file], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    const counts = Object.fromEntries(COUNTED.map((k) => [k, 0])) as BlockCounts;
    count((JSON.parse(stdout) as { blocks: unknown }).blocks, counts);
    return counts;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
