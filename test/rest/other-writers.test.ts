// .docx files written by pandoc and by LibreOffice, uploaded over REST (POST to import, PUT
// multipart to replace): a real gateway on a loopback port, the programs run here. In the system
// suite (test/system-tests.ts) because it drives external programs; without them a developer's run
// skips with one line, CI=true fails instead (test/helpers/external.ts).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedPackage } from "../documents/import/docx-fixtures.ts";
import { requireProgram } from "../helpers/external.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { client, type Client, type Record_, type VersionBody } from "../helpers/rest-documents.ts";

const run = promisify(execFile);
const same = (a: Uint8Array, b: Uint8Array) => expect(Buffer.compare(Buffer.from(a), Buffer.from(b))).toBe(0);
const doc = (id: string) => `/api/v1/documents/${id}`;

let tg: TestGateway;
let alice: Client;

beforeAll(async () => {
  tg = await startTestGateway();
  alice = client(tg.url, await tg.key({ user: "alice" }));
});
afterAll(() => tg?.close());

describe("imports and .docx replacements from other writers", () => {
  const pandoc = requireProgram("pandoc", {
    envVar: "PANDOC_PATH",
    install: "apt-get install -y pandoc",
    purpose: "uploading a .docx written by pandoc over REST (test/rest/other-writers.test.ts)",
  });
  const soffice = requireProgram("soffice", {
    envVar: "SOFFICE_PATH",
    install: "apt-get install -y libreoffice-writer",
    purpose: "uploading a .docx written by LibreOffice over REST (test/rest/other-writers.test.ts)",
  });
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "wg-rest-import-"));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const lines = (text: string) => text.split("\n").filter((line) => line !== "");

  it.skipIf(!pandoc)("a .docx written by pandoc: imported, its text read back", async () => {
    const markdown =
      "# Release notes\n\nVersion **2.1** fixes parsing.\n\n- Faster search\n- New export\n\n| Area | Owner |\n|------|-------|\n| API | Ana |\n";
    await writeFile(join(dir, "notes.md"), markdown);
    await run(pandoc!, ["-f", "markdown", "-t", "docx", "-o", join(dir, "notes.docx"), join(dir, "notes.md")], { timeout: 60_000 });
    const bytes = new Uint8Array(await readFile(join(dir, "notes.docx")));
    const response = await alice.form("POST", "/api/v1/documents", {}, { bytes, name: "notes.docx" });
    expect(response.status).toBe(201);
    const record = (await response.json()) as Record_;
    expect(record.name).toBe("notes");
    expect(lines((await alice.text(record.id)).text)).toEqual([
      "Release notes",
      "Version 2.1 fixes parsing.",
      "Faster search",
      "New export",
      "Area",
      "Owner",
      "API",
      "Ana",
    ]);
  });

  it.skipIf(!soffice)(
    "a .docx written by LibreOffice: replaces a document's content (PUT multipart), source docx",
    async () => {
      const html = `<!doctype html><html><head><meta charset="utf-8"><title>Minutes</title></head><body>
<h1>Minutes</h1><p>Decided to <b>ship</b> on Friday.</p><ul><li>Ana: release</li><li>Bo: notes</li></ul></body></html>`;
      await writeFile(join(dir, "minutes.html"), html);
      await run(
        soffice!,
        [
          `-env:UserInstallation=${pathToFileURL(join(dir, "profile")).href}`,
          "--headless",
          "--convert-to",
          "docx:MS Word 2007 XML",
          "--outdir",
          dir,
          join(dir, "minutes.html"),
        ],
        { timeout: 120_000 },
      );
      const bytes = new Uint8Array(await readFile(join(dir, "minutes.docx")));
      const record = await alice.create("Minutes draft", "# Draft\n");
      const replaced = await alice.form("PUT", doc(record.id), {}, { bytes, name: "minutes.docx" }, { "if-match": '"v1"' });
      expect(replaced.status).toBe(200);
      expect(replaced.headers.get("etag")).toBe('"v2"');
      expect(await replaced.json()).toMatchObject({
        id: record.id,
        name: "Minutes draft",
        version: 2,
        sizeBytes: (await storedPackage(bytes)).byteLength,
      });
      expect(lines((await alice.text(record.id)).text)).toEqual(["Minutes", "Decided to ship on Friday.", "Ana: release", "Bo: notes"]);
      const versions = (await (await alice.get(`${doc(record.id)}/versions`)).json()) as { versions: VersionBody[] };
      expect(versions.versions.map((v) => [v.version, v.source])).toEqual([
        [2, "docx"],
        [1, "markdown"],
      ]);
      same(await alice.bytes(`${doc(record.id)}/content`), await storedPackage(bytes));
    },
    150_000,
  );
});
