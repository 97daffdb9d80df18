// .docx files written by other programs, imported: LibreOffice (from an HTML page made here) and
// pandoc (from markdown). Their words, lines, headings, lists and tables come through in text and
// markdown. Without the program a file's tests are skipped (one line says so), except under
// CI=true (test/helpers/external.ts).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractDocx } from "../../../src/documents/import/index.ts";
import type { ExtractedDocument } from "../../../src/documents/renderer.ts";
import { requireProgram } from "../../helpers/external.ts";

const run = promisify(execFile);
const soffice = requireProgram("soffice", {
  envVar: "SOFFICE_PATH",
  install: "apt-get install -y libreoffice-writer",
  purpose: "importing a .docx written by LibreOffice (test/documents/import/other-writers.test.ts)",
});
const pandoc = requireProgram("pandoc", {
  envVar: "PANDOC_PATH",
  install: "apt-get install -y pandoc",
  purpose: "importing a .docx written by pandoc (test/documents/import/other-writers.test.ts)",
});

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "wg-writers-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const lines = (text: string) => text.split("\n").filter((line) => line !== "");

describe.skipIf(!soffice)("a .docx written by LibreOffice", () => {
  let extracted: ExtractedDocument;
  beforeAll(async () => {
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Quarterly report</title></head><body>
<h1>Quarterly report</h1>
<p>Revenue grew by <b>twelve</b> percent in the <i>third</i> quarter.</p>
<h2>Actions</h2>
<ul><li>Hire two engineers</li><li>Renew the office lease</li></ul>
<ol><li>Draft the budget</li><li>Review with finance</li></ol>
<table border="1"><tr><th>Region</th><th>Sales</th></tr><tr><td>North</td><td>1,200</td></tr><tr><td>South</td><td>950</td></tr></table>
<p>Contact <a href="https://example.com/team">the team</a> with questions.</p>
</body></html>`;
    await writeFile(join(dir, "report.html"), html);
    await run(
      soffice!,
      [
        `-env:UserInstallation=${pathToFileURL(join(dir, "profile")).href}`,
        "--headless",
        "--convert-to",
        "docx:MS Word 2007 XML",
        "--outdir",
        dir,
        join(dir, "report.html"),
      ],
      { timeout: 120_000 },
    );
    extracted = await extractDocx(new Uint8Array(await readFile(join(dir, "report.docx"))));
  }, 150_000);

  it("its text: every paragraph, list item and table cell on its own line", () => {
    expect(lines(extracted.text)).toEqual([
      "Quarterly report",
      "Revenue grew by twelve percent in the third quarter.",
      "Actions",
      "Hire two engineers",
      "Renew the office lease",
      "Draft the budget",
      "Review with finance",
      "Region",
      "Sales",
      "North",
      "1,200",
      "South",
      "950",
      "Contact the team with questions.",
    ]);
  });

  it("its markdown: headings, both lists, the table, emphasis and the link", () => {
    const md = extracted.markdown;
    expect(md).toMatch(/^# Quarterly report$/m);
    expect(md).toMatch(/^## Actions$/m);
    expect(md).toMatch(/^- Hire two engineers\n- Renew the office lease$/m);
    expect(md).toMatch(/^1\. Draft the budget\n2\. Review with finance$/m);
    expect(md).toMatch(/^\| Region \| Sales \|\n\| --- \| --- \|\n\| North \| 1,200 \|\n\| South \| 950 \|$/m);
    expect(md).toContain("**twelve**");
    expect(md).toContain("*third*");
    expect(md).toContain("[the team](https://example.com/team)");
  });
});

describe.skipIf(!pandoc)("a .docx written by pandoc", () => {
  let extracted: ExtractedDocument;
  beforeAll(async () => {
    const markdown = [
      "# Release notes",
      "Version **2.1** fixes `parse()` and adds export.",
      "## Changes",
      "- Faster search\n    - Index cached\n- New export",
      "1. Back up\n2. Upgrade",
      "| Area | Owner |\n|------|-------|\n| API | Ana |\n| UI | Bo |",
      "```\nnpm install\nnpm run build\n```",
    ].join("\n\n");
    await writeFile(join(dir, "notes.md"), markdown);
    await run(pandoc!, ["-f", "markdown", "-t", "docx", "-o", join(dir, "notes.docx"), join(dir, "notes.md")], { timeout: 60_000 });
    extracted = await extractDocx(new Uint8Array(await readFile(join(dir, "notes.docx"))));
  }, 90_000);

  it("its text: every paragraph, list item and table cell on its own line", () => {
    expect(lines(extracted.text)).toEqual([
      "Release notes",
      "Version 2.1 fixes parse() and adds export.",
      "Changes",
      "Faster search",
      "Index cached",
      "New export",
      "Back up",
      "Upgrade",
      "Area",
      "Owner",
      "API",
      "Ana",
      "UI",
      "Bo",
      // pandoc writes a code block as one paragraph with line breaks: a break is a space in the text.
      "npm install npm run build",
    ]);
  });

  it("its markdown: headings, nested and ordered lists, table, inline code and the code block", () => {
    const md = extracted.markdown;
    expect(md).toMatch(/^# Release notes$/m);
    expect(md).toMatch(/^## Changes$/m);
    expect(md).toMatch(/^- Faster search\n {2}- Index cached\n- New export$/m);
    expect(md).toMatch(/^1\. Back up\n2\. Upgrade$/m);
    expect(md).toMatch(/^\| Area \| Owner \|\n\| --- \| --- \|\n\| API \| Ana \|\n\| UI \| Bo \|$/m);
    expect(md).toContain("Version **2.1** fixes `parse()` and adds export.");
    expect(md).toContain("```\nnpm install\nnpm run build\n```");
  });
});
