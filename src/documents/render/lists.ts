// Markdown lists in Word terms: the list and item frames the document builder keeps, an ordered
// list's start, and task-list markers.
import type { NumberingDefinition } from "docx";
import type { Token } from "./markdown.ts";

const CHECKBOX_OPEN = "\u2610"; // ☐
const CHECKBOX_DONE = "\u2612"; // ☒
const TASK_MARKER = /^\[([ xX])\][ \t]+/;

export interface ListFrame {
  reference: string | NumberingDefinition;
  instance: number;
  level: number;
}

export interface ItemFrame {
  list: ListFrame;
  /** Whether the item's first paragraph (the one carrying the bullet or number) was written. */
  numbered: boolean;
}

/** An ordered list's start (markdown-it caps it at 9 digits); 1 when unreadable. */
export function listNumber(value: string | null | undefined): number {
  const n = value ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : 1;
}

/** `[ ] ` / `[x] ` at the start of a list item's first paragraph becomes ☐ / ☒. */
export function markTask(tokens: Token[], itemOpen: number): void {
  if (tokens[itemOpen + 1]?.type !== "paragraph_open") return;
  const inline = tokens[itemOpen + 2];
  const first = inline?.children?.[0];
  if (!first || first.type !== "text") return;
  const match = TASK_MARKER.exec(first.content);
  if (!match) return;
  const glyph = match[1] === " " ? CHECKBOX_OPEN : CHECKBOX_DONE;
  first.content = `${glyph} ${first.content.slice(match[0].length)}`;
}
