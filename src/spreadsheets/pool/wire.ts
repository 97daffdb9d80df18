// A job as it crosses to a worker. postMessage's structured clone pays per object: the 100,000
// one-cell rows of a create (issue 37 F6) took 140–280 ms of the event loop to clone, where the
// same values as JSON text take 13–26 ms to write and a string is copied at once. So a job goes as
// JSON text, with its bytes (an import's file) and blobs (a stored version) beside it as they are.
import type { Base, Job, ToWorker } from "./protocol.ts";

type JobMessage = Extract<ToWorker, { type: "job" }>;

export function encodeJob(id: number, job: Job): JobMessage {
  const { bytes, ...rest } = job as Job & { bytes?: Uint8Array };
  const base = (job as { base?: Base }).base;
  const plain = base?.blobs ? { ...rest, base: { ...base, blobs: undefined } } : rest;
  return {
    type: "job",
    id,
    json: JSON.stringify(plain),
    ...(bytes ? { bytes } : {}),
    ...(base?.blobs ? { blobs: base.blobs } : {}),
  };
}

/**
 * The buffer to move to the worker rather than copy: a job's bytes whose caller gave them up
 * (`moveBytes`), when they are a whole ArrayBuffer of their own. A 21 MB upload's copy took tens of
 * milliseconds of the event loop; moved, none.
 */
export function movable(job: Job): ArrayBuffer[] {
  const { bytes, moveBytes } = job as { bytes?: Uint8Array; moveBytes?: boolean };
  if (!moveBytes || !bytes || !(bytes.buffer instanceof ArrayBuffer)) return [];
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer] : [];
}

export function decodeJob(message: JobMessage): Job {
  const job = JSON.parse(message.json) as Job & { bytes?: Uint8Array; base?: Base };
  if (message.bytes) job.bytes = message.bytes;
  if (message.blobs && job.base) job.base.blobs = message.blobs;
  return job;
}
