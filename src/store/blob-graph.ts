// What both stores check before storing a workbook version's blobs (types/workbooks.ts): each
// hash is the blob's own, every blob is reachable (the manifest root, or a child of a reference),
// and what is named but not given must already be stored. A blob nothing could ever refer to
// would never be collected; a reference to a blob that is not there would be a broken version.
import { finish } from "../core/slices.ts";
import { blobHash } from "./content.ts";
import type { WorkbookContent } from "./types.ts";

export interface CheckedBlobs {
  /** The distinct blobs given, by hash. */
  given: Map<string, Uint8Array>;
  /** Hashes the manifest or a reference names that are not given: each must already be stored. */
  named: string[];
  /** The distinct references. */
  refs: [parent: string, child: string][];
}

/**
 * The check as steps (core/slices.ts): it yields after each blob hashed, so that a 100,000-formula
 * workbook's thousands of blobs are hashed a few milliseconds at a time (issue 37 F6).
 */
export function* checkingBlobs(content: WorkbookContent): Generator<unknown, CheckedBlobs> {
  const given = new Map<string, Uint8Array>();
  for (const [hash, bytes] of content.blobs) {
    if (blobHash(bytes) !== hash) throw new Error(`A workbook blob's bytes do not hash to ${hash}`);
    given.set(hash, bytes);
    yield;
  }
  const refs = [...new Map(content.refs.map(([parent, child]) => [`${parent} ${child}`, [parent, child] as [string, string]])).values()];
  const children = new Set(refs.map(([, child]) => child));
  for (const hash of given.keys()) {
    if (hash !== content.manifestHash && !children.has(hash))
      throw new Error(`Workbook blob ${hash} is neither the manifest nor referred to`);
  }
  const named = new Set([content.manifestHash, ...refs.flat()]);
  return { given, named: [...named].filter((hash) => !given.has(hash)), refs };
}

export const checkBlobs = (content: WorkbookContent): CheckedBlobs => finish(checkingBlobs(content));

/**
 * The given blobs parents first (the root, its pages, their tiles), each with the children it
 * refers to: written in that order, every blob but the root is referred to from the moment it is
 * stored, so no collection running meanwhile can take it (see sqlite/blobs.ts `stage`).
 */
export function parentsFirst(root: string, { given, refs }: CheckedBlobs): [hash: string, bytes: Uint8Array, children: string[]][] {
  const childrenOf = new Map<string, string[]>();
  for (const [parent, child] of refs) {
    const list = childrenOf.get(parent);
    if (list) list.push(child);
    else childrenOf.set(parent, [child]);
  }
  const order: [string, Uint8Array, string[]][] = [];
  const seen = new Set<string>();
  const visit = (hashes: Iterable<string>) => {
    for (const hash of hashes) {
      const bytes = given.get(hash);
      if (!bytes || seen.has(hash)) continue;
      seen.add(hash);
      order.push([hash, bytes, childrenOf.get(hash) ?? []]);
    }
  };
  visit([root]);
  for (let at = 0; at < order.length; at++) visit(order[at]![2]);
  // checkBlobs saw to it that every given blob is the root or a child; any cycle's blobs come last.
  visit(given.keys());
  return order;
}
