// A real office suite opens what we render: LibreOffice (Debian's libreoffice-writer-nogui, which
// .ci/run installs) converts each rendered .docx to text, and that text has the same words, in the
// same order, as the text the gateway keeps for the document.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderDocument } from "../../../src/documents/render/index.ts";

const run = promisify(execFile);
const soffice = process.env["SOFFICE_PATH"] ?? "/usr/bin/soffice";
const shared = fileURLToPath(new URL("../../../../shared/", import.meta.url));
const fixtureDir = `${shared}fixtures/markdown/`;

interface Sample {
  name: string;
  markdown: string;
  text?: string;
  converted?: string;
}

const samples: Sample[] = [];
let dir = "";

/** Text with list markers (LibreOffice prints the bullet or number) and all whitespace removed. */
const comparable = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .replace(/^[ \t]*(?:[•◦▪●]|\d+\.)[ \t]+/gm, "")
    .replace(/\s+/g, "");

beforeAll(async () => {
  if (!existsSync(soffice)) {
    throw new Error(`LibreOffice not found at ${soffice}: apt-get install -y libreoffice-writer-nogui (or set SOFFICE_PATH)`);
  }
  for (const file of (await readdir(fixtureDir)).filter((f) => f.endsWith(".md"))) {
    samples.push({ name: file.replace(/\.md$/, ""), markdown: await readFile(`${fixtureDir}${file}`, "utf8") });
  }
  const { stdout } = await run(process.execPath, [`${shared}tools/gen-markdown.mjs`, "60000", "11"], { maxBuffer: 16 << 20 });
  samples.push({ name: "generated-60k", markdown: stdout });

  dir = await mkdtemp(join(tmpdir(), "wg-libreoffice-"));
  for (const sample of samples) {
    const { docx, text } = await renderDocument(sample.markdown, { title: sample.name });
    sample.text = text;
    await writeFile(join(dir, `${sample.name}.docx`), docx);
  }
  // One conversion run for every file; a private profile so parallel runs never share a lock.
  await run(
    soffice,
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
    soffice,
    [`-env:UserInstallation=${pathToFileURL(join(dir, "profile")).href}`, "--headless", "--convert-to", "pdf", "--outdir", dir, join(dir, "kitchen-sink.docx")],
    { timeout: 120_000 },
  );
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("LibreOffice opens the rendered .docx", () => {
  it("converts every sample, and its text matches the stored text word for word", () => {
    expect(samples.length).toBeGreaterThanOrEqual(3);
    for (const sample of samples) {
      expect(sample.converted, sample.name).toBeTruthy();
      expect(comparable(sample.converted!), sample.name).toBe(comparable(sample.text!));
    }
  });

  it("converts the kitchen-sink document to PDF", async () => {
    const pdf = await readFile(join(dir, "kitchen-sink.pdf"));
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.byteLength).toBeGreaterThan(10_000);
  });

  it("shows list numbering, bullets and checkboxes as Word numbering", () => {
    const kitchen = samples.find((s) => s.name === "kitchen-sink")!.converted!;
    expect(kitchen).toMatch(/^\s+3\. ordered, starting at three$/m);
    expect(kitchen).toMatch(/^\s+1\. nested ordered restarts at one$/m);
    // CommonMark makes "3. 4. ⏎⏎ 1." one list; the item written "1." is numbered 1, not 5.
    expect(kitchen).toMatch(/^\s+1\. a second ordered list restarts at one$/m);
    expect(kitchen).toMatch(/^\s+• first bullet$/m);
    expect(kitchen).toMatch(/^\s+• ☐ an open task$/m);
  });
});
