// Issue 23, finding 4's scenario against a running gateway: one user uploads .docx files whose
// document.xml inflates to 190 MB (700 KB each; the second one's zip directory lies that every
// entry inflates to 100 bytes, so only counting the inflated bytes can stop it) while another user
// creates a small document every second. Returns every outcome, each create's latency, and the peak RSS of this process (the
// gateway and its worker threads run in it) sampled every 50 ms. Shared by
// heavy-imports.test.ts (outcomes, memory) and bench/docx-import.ts (latency figures).
import { inflatingDocx, lieAboutSizes, renderedDocx } from "./docx-fixtures.ts";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

export interface HeavyOutcome {
  status: number;
  code: string | undefined;
  reason: string | undefined;
  ms: number;
}

export interface HeavyResult {
  uploads: HeavyOutcome[];
  creates: HeavyOutcome[];
  peakRssMb: number;
  /** Percentile of the creates' latency, ms. */
  createsP95: number;
}

async function outcome(started: number, response: Response): Promise<HeavyOutcome> {
  const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; details?: { reason?: string } } };
  return {
    status: response.status,
    code: body.error?.code,
    reason: body.error?.details?.reason,
    ms: Math.round(performance.now() - started),
  };
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

export async function runHeavyImports(
  url: string,
  keys: { uploader: string; other: string },
  options: { uploads?: number; seconds?: number; inflatedBytes?: number } = {},
): Promise<HeavyResult> {
  const honest = await inflatingDocx(options.inflatedBytes ?? 190 * 1024 * 1024);
  const lying = lieAboutSizes(honest, 100);
  const warmForm = new FormData();
  warmForm.set("name", "warm-up");
  warmForm.set("file", new Blob([(await renderedDocx("# warm\n")) as Uint8Array<ArrayBuffer>], { type: DOCX_TYPE }), "warm.docx");
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const upload = async (i: number) => {
    const form = new FormData();
    form.set("name", `heavy ${i}`);
    const docx = i % 2 === 0 ? honest : lying;
    form.set("file", new Blob([docx as Uint8Array<ArrayBuffer>], { type: DOCX_TYPE }), "heavy.docx");
    const started = performance.now();
    const response = await fetch(`${url}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys.uploader}` },
      body: form,
    });
    return outcome(started, response);
  };
  const create = async (i: number) => {
    const started = performance.now();
    const response = await fetch(`${url}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys.other}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `note ${i}`, markdown: `# Note ${i}\n\nA small document.\n` }),
    });
    return outcome(started, response);
  };
  try {
    // Both pools warm (a worker's first job loads its code): the figures are the heavy uploads' cost.
    await create(-1);
    await fetch(`${url}/api/v1/documents`, { method: "POST", headers: { authorization: `Bearer ${keys.other}` }, body: warmForm });
    const uploads = Promise.all(Array.from({ length: options.uploads ?? 2 }, (_, i) => upload(i)));
    const creates: Promise<HeavyOutcome>[] = [];
    for (let i = 0; i < (options.seconds ?? 10); i++) {
      creates.push(create(i));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const done = await Promise.all(creates);
    return {
      uploads: await uploads,
      creates: done,
      peakRssMb: Math.round(peak / (1024 * 1024)),
      createsP95: percentile(
        done.map((c) => c.ms),
        95,
      ),
    };
  } finally {
    clearInterval(sampler);
  }
}
