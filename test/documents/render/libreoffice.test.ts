// A real office suite opens what we render: LibreOffice (Debian's libreoffice-writer-nogui, which
// .ci/run installs) converts each rendered .docx to text, and that text has the same words, in the
// same order, as the text the gateway keeps for the document. Without soffice the file is skipped
// (one line says so), except under CI=true where that is a failure (test/helpers/external.ts).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderDocument } from "../../../src/documents/render/index.ts";
import { generateMarkdown } from "../../fixtures/gen-markdown.ts";
import { requireProgram } from "../../helpers/external.ts";

const run = promisify(execFile);
const soffice = requireProgram("soffice", {
  envVar: "SOFFICE_PATH",
  install: "apt-get install -y libreoffice-writer-nogui",
  purpose: "the LibreOffice test (test/documents/render/libreoffice.test.ts)",
});
const fixtureDir = fileURLToPath(new URL("../../fixtures/markdown/", import.meta.url));

interface Sample {
  name: string;
  markdown: string;
  text?: string;
  converted?: string;
  /** The body's text with each footnote reference as its number between U+E000 and U+E001, when it has any. */
  withNotes?: string;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'" };

/** document.xml's text in order, each w:footnoteReference as its id (between U+E000 and U+E001, which comparable removes). */
async function bodyWithNoteNumbers(docx: Uint8Array): Promise<string | undefined> {
  const xml = await (await JSZip.loadAsync(docx)).file("word/document.xml")!.async("string");
  if (!xml.includes("<w:footnoteReference")) return undefined;
  let out = "";
  for (const m of xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:footnoteReference w:id="(\d+)"\/>/g)) {
    out += m[2] !== undefined ? `\uE000${m[2]}\uE001` : (m[1] ?? "").replace(/&(?:amp|lt|gt|quot|apos);/g, (e) => ENTITIES[e] ?? e);
  }
  return out;
}

const samples: Sample[] = [];
let dir = "";

/** Text with list markers (LibreOffice prints the bullet or number) and all whitespace removed. */
const comparable = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .replace(/^[ \t]*(?:[•◦▪●]|\d+\.)[ \t]+/gm, "")
    .replace(/[\s\uE000\uE001]+/g, "");

describe.skipIf(!soffice)("LibreOffice opens the rendered .docx", () => {
  beforeAll(async () => {
    for (const file of (await readdir(fixtureDir)).filter((f) => f.endsWith(".md"))) {
      samples.push({ name: file.replace(/\.md$/, ""), markdown: await readFile(`${fixtureDir}${file}`, "utf8") });
    }
    samples.push({ name: "generated-60k", markdown: generateMarkdown(60_000, 11) });

    dir = await mkdtemp(join(tmpdir(), "wg-libreoffice-"));
    for (const sample of samples) {
      const { docx, text } = await renderDocument(sample.markdown, { title: sample.name });
      sample.text = text;
      const withNotes = await bodyWithNoteNumbers(docx);
      if (withNotes !== undefined) sample.withNotes = withNotes;
      await writeFile(join(dir, `${sample.name}.docx`), docx);
    }
    // One conversion run for every file; a private profile so parallel runs never share a lock.
    await run(
      soffice!,
      [
        `-env:UserInstallation=${pathToFileURL(join(dir, "profile")).href}`,
        "--headless",
        "--convert-to",
        "txt:Text (encoded):UTF8",
        "--outdir",
        dir,
        ...samples.map((s) => join(dir, `${s.name}.docx`)),
      ],
      { timeout: 120_000 },
    );
    for (const sample of samples) sample.converted = await readFile(join(dir, `${sample.name}.txt`), "utf8");
    // And the check the issue names: conversion to PDF succeeds.
    await run(
      soffice!,
      [
        `-env:UserInstallation=${pathToFileURL(join(dir, "profile")).href}`,
        "--headless",
        "--convert-to",
        "pdf",
        "--outdir",
        dir,
        join(dir, "kitchen-sink.docx"),
      ],
      { timeout: 120_000 },
    );
  }, 180_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("converts every sample, and its text matches the stored text word for word", () => {
    expect(samples.length).toBeGreaterThanOrEqual(3);
    for (const sample of samples) {
      expect(sample.converted, sample.name).toBeTruthy();
      // LibreOffice prints a footnote reference as its number, which the stored text (mammoth's
      // raw text) does not have: those samples are compared with the body's text read from
      // document.xml with each reference as its number, and that text less the numbers is the stored text.
      const expected = sample.withNotes ?? sample.text!;
      expect(comparable(sample.converted!), sample.name).toBe(comparable(expected));
    }
    const notes = samples.filter((s) => s.withNotes !== undefined);
    expect(notes.map((s) => s.name)).toEqual(expect.arrayContaining(["footnotes", "edge-cases"]));
    for (const sample of notes)
      expect(comparable(sample.withNotes!.replace(/\uE000\d+\uE001/g, "")), sample.name).toBe(comparable(sample.text!));
  });

  it("converts the kitchen-sink document to PDF", async () => {
    const pdf = await readFile(join(dir, "kitchen-sink.pdf"));
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.byteLength).toBeGreaterThan(10_000);
  });

  it("shows list numbering, bullets and checkboxes as Word numbering", () => {
    const kitchen = samples.find((s) => s.name === "kitchen-sink")!.converted!;
    expect(kitchen).toMatch(/^\s+5\. ordered, starting at five$/m);
    expect(kitchen).toMatch(/^\s+1\. nested ordered restarts at one$/m);
    // "1)" after "5. 6." is another delimiter, so a new list (CommonMark), numbered from one.
    expect(kitchen).toMatch(/^\s+1\. a new ordered list starts at one again$/m);
    // "3. 4. ⏎⏎ 1." is one list (CommonMark): the item written "1." is numbered 5.
    const numbering = samples.find((s) => s.name === "list-numbering")!.converted!;
    expect(numbering).toMatch(/^\s+5\. written one, numbered five: still the same list$/m);
    expect(numbering).toMatch(/^\s+3\. lazy one, numbered three$/m);
    expect(numbering).toMatch(/^\s+1\. a full stop starts a new list at one$/m);
    expect(kitchen).toMatch(/^\s+• design review$/m);
    expect(kitchen).toMatch(/^\s+• ☐ book the venue$/m);
  });
});
