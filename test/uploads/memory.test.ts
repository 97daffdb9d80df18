// A 50 MB upload through GraphQL and through tRPC costs the gateway less than 64 MB of RSS. The
// gateway runs as its own process (`src/main.ts`, as `npm start` runs it) so that its memory is
// not the test's; its temp dir (TMPDIR) is ours to check afterwards.
import { writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGatewayClient } from "../../src/client/index.ts";
import { startSandbox, type Sandbox } from "../sandbox/index.ts";
import {
  JWT_SECRET,
  MiB,
  graphqlUploadForm,
  leftoverUploads,
  memoryOf,
  postGraphQL,
  sha256Of,
  signAccessToken,
  startGatewayProcess,
  testFile,
  type GatewayProcess,
} from "./helpers.ts";

const FILE_BYTES = 50 * MiB;
const MAX_GROWTH = 64 * MiB;

let sandbox: Sandbox;
let gateway: GatewayProcess;
let token: string;
let work: string;
let spoolDir: string;
let dataDir: string;

beforeAll(async () => {
  token = await signAccessToken();
  sandbox = await startSandbox({ tokens: [token] });
  work = await mkdtemp(join(tmpdir(), "wg-upload-mem-"));
  spoolDir = await mkdtemp(join(tmpdir(), "wg-upload-mem-spool-"));
  dataDir = await mkdtemp(join(tmpdir(), "wg-upload-mem-data-"));
  gateway = await startGatewayProcess({
    API_URL: sandbox.url,
    JWT_SECRET,
    DATA_DIR: dataDir,
    TMPDIR: spoolDir,
    RENDER_WORKERS: "1",
    UPSTREAM_TIMEOUT_MS: "60000",
  });
});

afterAll(async () => {
  await gateway?.stop();
  await sandbox?.close();
  for (const dir of [work, spoolDir, dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

/** Resets the peak (VmHWM) so that it measures from now on; false where the kernel does not allow it. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

it("50 MB through GraphQL and through tRPC: byte for byte upstream, gateway RSS grows < 64 MB, no temp files left", async () => {
  const pid = gateway.child.pid!;
  const client = createGatewayClient({ url: gateway.url, token });
  const graphql = async (size: number, seed: number) => {
    const file = await testFile(join(work, `gql-${seed}.bin`), size, seed);
    const { status, body } = await postGraphQL(gateway.url, token, graphqlUploadForm(file, `gql-${seed}.bin`));
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    return body.data!.uploadFile;
  };
  const trpc = async (size: number, seed: number) => {
    const form = new FormData();
    form.append("file", await testFile(join(work, `trpc-${seed}.bin`), size, seed), `trpc-${seed}.bin`);
    return client.files.upload.mutate(form);
  };

  // Warm-up: code paths loaded and compiled, pools and caches filled, and the young generation
  // grown to what a streamed upload keeps it at (the process runs with a 32 MB semi-space, as
  // `npm start` does): a fixed cost that 1 MB warm-ups left inside the measured growth.
  await graphql(16 * MiB, 1);
  await trpc(16 * MiB, 2);
  await new Promise((resolve) => setTimeout(resolve, 200));

  const before = memoryOf(pid);
  const peakReset = resetPeak(pid);
  expect((await graphql(FILE_BYTES, 3)).size).toBe(FILE_BYTES);
  expect((await trpc(FILE_BYTES, 4)).size).toBe(FILE_BYTES);
  const after = memoryOf(pid);

  // Without a reset, VmHWM may be the start-up peak: then this over-states the growth (still a bound).
  const growth = after.peak - before.rss;
  console.log(
    `gateway RSS: ${(before.rss / MiB).toFixed(1)} MB before, peak ${(after.peak / MiB).toFixed(1)} MB during two ` +
      `${FILE_BYTES / MiB} MB uploads (growth ${(growth / MiB).toFixed(1)} MB${peakReset ? "" : ", peak not reset"})`,
  );
  expect(growth).toBeLessThan(MAX_GROWTH);

  const received = sandbox
    .requestsTo("/drive/v1/files", "POST")
    .slice(-2)
    .map((r) => (r.body as { file: { size: number; sha256: string } }).file);
  expect(received).toEqual([
    expect.objectContaining({ size: FILE_BYTES, sha256: sha256Of(FILE_BYTES, 3) }),
    expect.objectContaining({ size: FILE_BYTES, sha256: sha256Of(FILE_BYTES, 4) }),
  ]);
  expect(await leftoverUploads(spoolDir)).toEqual([]);
});
