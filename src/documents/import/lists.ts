// Keeping apart ordered lists that Word keeps apart. Each Word list is a numbering instance (w:num);
// instances often share one abstract definition (our renderer's lists of the same start, Word's
// "restart numbering"), and mammoth tells paragraphs' lists apart only by that definition, so two
// such lists in a row would come out as one <ol> and one markdown list. Two steps:
//   1. the numbering part mammoth reads gets an abstract definition of its own per instance;
//   2. while mammoth's document is transformed, the first paragraph of each new ordered list is
//      marked with LIST_START, where ./markdown.ts ends the list before it.

/** A noncharacter-free private-use code point no text carries in practice; stripped from all output. */
export const LIST_START = "\u{10FFFD}";

/** Added bytes past which abstract definitions are no longer copied (a numbering part with thousands of instances). */
const COPY_BUDGET = 4 * 1024 * 1024;

const ABSTRACT = /<w:abstractNum\b[^>]*?\bw:abstractNumId="([^"]*)"[^>]*>[\s\S]*?<\/w:abstractNum>/g;
const NUM = /<w:num\b[^>]*?\bw:numId="([^"]*)"[^>]*>[\s\S]*?<\/w:num>/g;
const NUM_ABSTRACT = /(<w:abstractNumId\b[^>]*?\bw:val=")([^"]*)(")/;

/** numbering.xml with every w:num on an abstract definition of its own (copies where they were shared). */
export function separateInstances(numbering: string): string {
  const abstracts = new Map<string, string>();
  for (const match of numbering.matchAll(ABSTRACT)) abstracts.set(match[1]!, match[0]);
  const used = new Set<string>();
  const copies: string[] = [];
  let budget = COPY_BUDGET;
  const rewritten = numbering.replace(NUM, (num, numId: string) => {
    const abstractId = NUM_ABSTRACT.exec(num)?.[2];
    const abstract = abstractId === undefined ? undefined : abstracts.get(abstractId);
    if (abstractId === undefined || abstract === undefined) return num;
    if (!used.has(abstractId)) {
      used.add(abstractId);
      return num;
    }
    if (abstract.length > budget) return num;
    budget -= abstract.length;
    const copyId = `${abstractId}-${numId}`;
    copies.push(abstract.replace(/\bw:abstractNumId="[^"]*"/, `w:abstractNumId="${copyId}"`));
    return num.replace(NUM_ABSTRACT, `$1${copyId}$3`);
  });
  if (copies.length === 0) return numbering;
  const end = rewritten.lastIndexOf("</w:numbering>");
  return end < 0 ? numbering : `${rewritten.slice(0, end)}${copies.join("")}${rewritten.slice(end)}`;
}

/** mammoth's document model, as far as list marking needs it. */
export interface DocElement {
  type: string;
  children?: DocElement[];
  numbering?: { isOrdered?: boolean; level?: string } | null;
  [key: string]: unknown;
}

const markerRun = (): DocElement => ({
  type: "run",
  children: [{ type: "text", value: LIST_START }],
  styleId: null,
  styleName: null,
  isBold: false,
  isUnderline: false,
  isItalic: false,
  isStrikethrough: false,
  isAllCaps: false,
  isSmallCaps: false,
  verticalAlignment: "baseline",
  font: null,
  fontSize: null,
  highlight: null,
});

/** Marks each ordered-list paragraph whose list instance differs from the previous one's at its level. */
export function markListStarts(element: DocElement): void {
  let levels: NonNullable<DocElement["numbering"]>[] = [];
  for (const child of element.children ?? []) {
    if (child.type === "paragraph") {
      const numbering = child.numbering;
      if (numbering) {
        const level = Number(numbering.level ?? 0) || 0;
        const previous = levels[level];
        if (numbering.isOrdered && previous?.isOrdered && previous !== numbering) child.children = [markerRun(), ...(child.children ?? [])];
        levels = levels.slice(0, level);
        levels[level] = numbering;
      } else if ((child.children ?? []).length > 0) {
        levels = [];
      }
    } else {
      levels = [];
      markListStarts(child);
    }
  }
}
