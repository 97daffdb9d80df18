// Strict input objects: a field the schema does not know is an error that names it and, when one
// is close, the field the caller probably meant — `unknown field "nmae" (did you mean "name"?)` —
// on REST, tRPC and MCP alike (GraphQL's validation says the same in its own words). See docs/api.md.
import { z } from "zod";

/**
 * Edit distance counting a swap of two neighbours as one edit (optimal string alignment):
 * "nmae" is one edit from "name", not two.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number) => d[i * cols + j]!;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The known name closest to `name` (case aside), if it is close enough to be a likely typo. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  // A third of the name, at least 2 edits, and never all of it: "nmae"→"name", "maxchar"→"maxChars", not "x"→"q".
  return best && best.distance <= Math.max(2, Math.floor(best.name.length / 3)) && best.distance < name.length ? best.name : undefined;
}

/** The message for fields an object does not know: one clause per field, with a suggestion when there is one. */
export function unknownFieldsMessage(fields: readonly string[], known: readonly string[]): string {
  return fields
    .map((field) => {
      const hint = closestName(field, known);
      return `unknown field ${JSON.stringify(field)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ""}`;
    })
    .join("; ");
}

/**
 * `z.strictObject` whose unknown-field issue says which field and suggests the closest known one.
 * `.extend()` and `.meta()` keep both. In JSON Schema it is `additionalProperties: false`.
 */
export function strictObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === "unrecognized_keys" ? unknownFieldsMessage(issue.keys, known) : undefined),
  });
}
