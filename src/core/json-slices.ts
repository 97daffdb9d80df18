// JSON text made in slices (./slices.ts): the bytes JSON.stringify makes, built by walking the
// value as a generator that yields between an array's elements and an object's members, so that a
// large answer (a GraphQL result of 300,000 cells, 1.8 MB) is written a few milliseconds at a time
// with the event loop turning in between, instead of in one call of JSON.stringify. The leaves'
// containers (a row of cells) are still JSON.stringify's: a generator step per cell made the
// 300,000 cells take seconds.
import { inSlices } from "./slices.ts";

/** Values of fewer nodes than this are written by JSON.stringify at once: nothing to gain from slices. */
export const SLICED_JSON_MIN_NODES = 2_000;

/** Whether `value` has at least `limit` array elements and object members (it stops counting there). */
export function hasNodes(value: unknown, limit = SLICED_JSON_MIN_NODES): boolean {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === null || typeof next !== "object") continue;
    const children = Array.isArray(next) ? next : Object.values(next);
    count += children.length;
    if (count >= limit) return true;
    for (const child of children) if (child !== null && typeof child === "object") stack.push(child);
  }
  return false;
}

/** What JSON.stringify does with a value before writing it: toJSON, then boxed primitives unboxed. */
function prepared(value: unknown, key: string): unknown {
  let v = value;
  if (v !== null && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON === "function") {
    v = (v as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (v instanceof Number || v instanceof String || v instanceof Boolean) v = v.valueOf();
  return v;
}

/** Whether JSON.stringify leaves the value out of an object (and writes null for it in an array). */
const omitted = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";

/** Whether every member is a primitive (or something JSON.stringify leaves out): JSON.stringify writes it at once. */
function flat(value: object): boolean {
  for (const member of Array.isArray(value) ? value : Object.values(value)) if (member !== null && typeof member === "object") return false;
  return true;
}

/**
 * Writes `value` (prepared, not omitted) into `out`. A container of primitives (a row of cells) is
 * one JSON.stringify call; a container holding containers yields after each member, so a slice
 * ends between rows, never inside one.
 */
function* writing(value: unknown, out: string[]): Generator<void, void> {
  if (value === null || typeof value !== "object" || flat(value)) {
    out.push(JSON.stringify(value));
    return;
  }
  if (Array.isArray(value)) {
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(",");
      const v = prepared(value[i], String(i));
      if (omitted(v)) out.push("null");
      else yield* writing(v, out);
      yield;
    }
    out.push("]");
    return;
  }
  out.push("{");
  let first = true;
  for (const key of Object.keys(value)) {
    const v = prepared((value as Record<string, unknown>)[key], key);
    if (omitted(v)) continue;
    out.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    first = false;
    yield* writing(v, out);
    yield;
  }
  out.push("}");
}

/** JSON.stringify(value)'s text (for a value JSON.stringify would write), made in slices. */
export async function jsonInSlices(value: unknown): Promise<string> {
  const out: string[] = [];
  const top = prepared(value, "");
  if (omitted(top)) throw new TypeError("Nothing to write as JSON");
  await inSlices(writing(top, out));
  return out.join("");
}
