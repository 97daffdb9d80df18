// What both stores check before storing a workbook version's blobs (types/workbooks.ts): each
// hash is the blob's own, every blob is reachable (the manifest root, or a child of a reference),
// and what is named but not given must already be stored. A blob nothing could ever refer to
// would never be collected; a reference to a blob that is not there would be a broken version.
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

export function checkBlobs(content: WorkbookContent): CheckedBlobs {
  const given = new Map<string, Uint8Array>();
  for (const [hash, bytes] of content.blobs) {
    if (blobHash(bytes) !== hash) throw new Error(`A workbook blob's bytes do not hash to ${hash}`);
    given.set(hash, bytes);
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
