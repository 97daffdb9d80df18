// Issue 23, finding 2, through a real gateway: every hostile package variant is refused with 415
// on create and on replace, and nothing is stored; an accepted upload is stored as the package
// written anew from what was parsed (UTF-8, no comment, no DTD), not as the bytes that came in.
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../../helpers/gateway.ts";
import { renderedDocx, rewrite } from "./docx-fixtures.ts";
import { hostileVariants, type HostileVariant } from "./hostile-variants.ts";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
let tg: TestGateway;
let key: string;
let variants: HostileVariant[];

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "red-team" });
  variants = await hostileVariants();
});
afterAll(async () => {
  await tg?.close();
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${tg.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });

function upload(method: "POST" | "PUT", path: string, bytes: Uint8Array, name = "upload") {
  const form = new FormData();
  if (method === "POST") form.set("name", name);
  form.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: DOCX_TYPE }), "upload.docx");
  return call(path, { method, body: form });
}

async function documentIds(): Promise<string[]> {
  const response = await call("/api/v1/documents?limit=100");
  return ((await response.json()) as { documents: { id: string }[] }).documents.map((d) => d.id);
}

describe("hostile .docx packages through the gateway", () => {
  it("each variant → 415 on create and on replace; nothing is stored", async () => {
    const created = await call("/api/v1/documents", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Target", markdown: "# Keep me\n" }),
    });
    const target = (await created.json()) as { id: string };
    const before = await documentIds();
    for (const variant of variants) {
      for (const [method, path] of [
        ["POST", "/api/v1/documents"],
        ["PUT", `/api/v1/documents/${target.id}`],
      ] as const) {
        const response = await upload(method, path, variant.docx, variant.what);
        const body = (await response.json()) as { error?: { code: string; message: string } };
        expect({ what: variant.what, method, status: response.status, code: body.error?.code }).toEqual({
          what: variant.what,
          method,
          status: 415,
          code: "UNSUPPORTED_MEDIA_TYPE",
        });
        expect(body.error?.message).toMatch(variant.message);
      }
    }
    expect(await documentIds()).toEqual(before);
    const read = (await (await call(`/api/v1/documents/${target.id}`)).json()) as { text: string };
    expect(read.text).toBe("Keep me");
    const versions = (await (await call(`/api/v1/documents/${target.id}/versions`)).json()) as { versions: unknown[] };
    expect(versions.versions).toHaveLength(1);
  }, 120_000);

  it("an accepted upload is stored as the package written anew from what was parsed", async () => {
    const settings = `<?xml version="1.0" encoding="UTF-16" standalone="yes"?><!-- a comment --><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:zoom w:percent="100"/></w:settings>`;
    const utf16 = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(settings, "utf16le")]));
    const sent = rewrite(await renderedDocx("# Title\n\nKept &amp; 1 < 2 > 0.\n"), { "word/settings.xml": utf16 });
    const response = await upload("POST", "/api/v1/documents", sent, "rewritten");
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const stored = new Uint8Array(await (await call(`/api/v1/documents/${id}/content`)).arrayBuffer());
    expect(Buffer.from(stored).equals(Buffer.from(sent))).toBe(false);
    const parts = unzipSync(stored);
    expect(Object.keys(parts).sort()).toEqual(Object.keys(unzipSync(sent)).sort());
    expect(strFromU8(parts["word/settings.xml"]!)).toBe(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:zoom w:percent="100"/></w:settings>',
    );
    for (const [name, data] of Object.entries(parts)) {
      if (!/\.(xml|rels)$/.test(name)) continue;
      expect(strFromU8(data).startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>')).toBe(true);
      expect(strFromU8(data)).not.toMatch(/<!/);
    }
    // The stored package reads back to the same text as the upload.
    const replaced = await upload("PUT", `/api/v1/documents/${id}`, stored);
    expect(replaced.status).toBe(200);
    const read = (await (await call(`/api/v1/documents/${id}`)).json()) as { text: string };
    expect(read.text).toBe("Title\n\nKept & 1 < 2 > 0.");
  }, 60_000);
});
