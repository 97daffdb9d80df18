// Markdown fuzzing through REST create: pathological inputs (10,000-deep lists and quotes, a
// 50,000-column table, a 1 MB line, control characters, lone surrogates, NUL, XML-forbidden
// noncharacters) and random markdown built from CommonMark constructs and nasty text. Every
// answer keeps the REST contract (no 5xx but a full render queue, no INTERNAL); every .docx the
// gateway produces is a zip whose XML parts are well-formed XML 1.0 (no forbidden characters).
// A refusal in the contract's shape (4xx, or 503 SERVICE_UNAVAILABLE) passes as well as a
// document. Last, LibreOffice opens the .docx the fuzzing produced (where soffice is installed;
// under CI=true it must be).
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import fc from "fast-check";
import { XMLValidator } from "fast-xml-parser";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireProgram } from "../helpers/external.ts";
import { checkRestAnswer, fuzzParams, invariant, nastyString, startFuzzEnv, type FuzzEnv } from "./harness.ts";

const soffice = requireProgram("soffice", {
  envVar: "SOFFICE_PATH",
  install: "apt-get install -y libreoffice-writer-nogui",
  purpose: "LibreOffice opening the fuzzed .docx (test/fuzz/markdown.test.ts)",
});
/**
 * The .docx the fuzzing produced, for LibreOffice at the end: every pathological one (the
 * 50,000-column table included: the renderer folds columns past Word's 63) and the first 12
 * random ones.
 */
const produced: Uint8Array[] = [];
const RANDOM_TO_OPEN = 12;
let randomKept = 0;

let env: FuzzEnv;
beforeAll(async () => {
  env = await startFuzzEnv();
});
afterAll(() => env?.close());

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
const FORBIDDEN_CHAR =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const FORBIDDEN_REF =
  /&#(?:x0*(?:[0-8bBcCeEfF]|1[0-9a-fA-F]|[dD][89a-fA-F][0-9a-fA-F]{2}|[fF]{3}[eEfF])|0*(?:[0-8]|1[124-9]|2[0-9]|3[01]|5529[6-9]|55[3-9]\d\d|5[6-7]\d{3}|6553[45]));/;

/** Every XML part of the .docx parses, and holds only characters XML 1.0 allows. */
async function expectWellFormedDocx(bytes: Uint8Array, where: string): Promise<string> {
  const zip = await JSZip.loadAsync(bytes);
  let document = "";
  for (const name of Object.keys(zip.files).filter((n) => n.endsWith(".xml") || n.endsWith(".rels"))) {
    const xml = await (zip.file(name) as JSZip.JSZipObject).async("string");
    if (name === "word/document.xml") document = xml;
    const bad = FORBIDDEN_CHAR.exec(xml) ?? FORBIDDEN_REF.exec(xml);
    invariant(
      !bad,
      `${where}: ${name} holds a character XML 1.0 forbids (U+${bad?.[0].codePointAt(0)?.toString(16)} ${JSON.stringify(bad?.[0])}) at ${bad?.index}`,
    );
    const valid = XMLValidator.validate(xml);
    invariant(valid === true, `${where}: ${name} is not well-formed: ${JSON.stringify(valid)}`);
  }
  invariant(document.includes("<w:body"), `${where}: no word/document.xml body`);
  return document;
}

interface Outcome {
  status: number;
  code?: string;
  xml?: string;
}

/** POST /api/v1/documents, then (on 201) the text and the .docx; checks every answer. */
async function create(markdown: string, where: string): Promise<Outcome> {
  const started = performance.now();
  const response = await fetch(`${env.url}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "fuzz", markdown }),
  });
  const text = await response.text();
  if (process.env["FUZZ_DEBUG"])
    console.log(where.slice(0, 60), response.status, text.slice(0, 200), Math.round(performance.now() - started), "ms");
  checkRestAnswer(response.status, response.headers.get("content-type"), text, where);
  if (response.status !== 201) return { status: response.status, code: (JSON.parse(text) as { error: { code: string } }).error.code };
  const { id } = JSON.parse(text) as { id: string };
  const read = await fetch(`${env.url}/api/v1/documents/${id}?maxChars=1000000`, { headers: { authorization: `Bearer ${env.apiKey}` } });
  const readText = await read.text();
  checkRestAnswer(read.status, read.headers.get("content-type"), readText, `${where} (read)`);
  expect(read.status, where).toBe(200);
  const content = await fetch(`${env.url}/api/v1/documents/${id}/content`, { headers: { authorization: `Bearer ${env.apiKey}` } });
  expect(content.status, where).toBe(200);
  const bytes = new Uint8Array(await content.arrayBuffer());
  const fetched = performance.now();
  const xml = await expectWellFormedDocx(bytes, where);
  const random = where.startsWith("markdown ");
  if (random ? randomKept++ < RANDOM_TO_OPEN : true) produced.push(bytes);
  if (process.env["FUZZ_DEBUG"])
    console.log(
      where.slice(0, 60),
      `fetched at ${Math.round(fetched - started)} ms, ${bytes.length} bytes, checked in ${Math.round(performance.now() - fetched)} ms`,
    );
  return { status: 201, xml };
}

const MAX = 400_000;
const controls = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join("") + "\u007f\u0080\u0085\u009f";
const oddities = "\ud800 \udfff \udbff\udfff \ufffe \uffff \ufeff \u2028 \u2029 \u200b \u202e &#0; &#xD800; &#x110000; &#65535; &#xFFFE;";

const pathological: [string, string][] = [
  ["10,000-deep bullet list", `${"- ".repeat(10_000)}x`],
  ["10,000-deep ordered list", `${"1. ".repeat(10_000)}x`],
  ["10,000-deep blockquote", `${">".repeat(10_000)} x`],
  ["10,000-deep quote and list mix", `${"> - ".repeat(5_000)}x`],
  ["600-deep list by indentation", Array.from({ length: 600 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n")],
  ["10,000-deep emphasis", `${"*".repeat(10_000)}x${"*".repeat(10_000)}`],
  ["10,000 nested links", `${"[".repeat(10_000)}x${"](u)".repeat(10_000)}`],
  ["50,000-column table", `${"|a".repeat(50_000)}|\n${"|-".repeat(50_000)}|\n${"|1".repeat(50_000)}|`],
  ["5,000-row table", `|a|b|\n|-|-|\n${"|1|2|\n".repeat(5_000)}`],
  ["one line at the limit", "x".repeat(MAX)],
  ["one word per line at the limit", "ab\n".repeat(MAX / 3)],
  [
    "control characters everywhere",
    `# ${controls}\n\n${controls} *${controls}* [${controls}](http://x/${encodeURIComponent(controls)})\n\n\`\`\`\n${controls}\n\`\`\`\n\n|${controls}|\n|-|\n|${controls}|\n\n- ${controls}`,
  ],
  ["NUL", `a\u0000b\n\n# \u0000\n\n\`\u0000\`\n\n[\u0000](\u0000)`],
  [
    "lone surrogates and noncharacters",
    `# ${oddities}\n\n${oddities}\n\n- ${oddities}\n\n> ${oddities}\n\n\`${oddities}\`\n\n|${oddities}|\n|-|\n|${oddities}|`,
  ],
  ["CR-only line ends", "# a\r\rb\r- c\r- d\r\r> e"],
  ["huge heading marker run", `${"#".repeat(100_000)} x`],
  ["many images", "![a](data:image/png;base64,AAAA) ".repeat(10_000)],
  [
    "malformed data image",
    "![a](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB) ![b](data:image/jpeg;base64,/9j/) ![c](data:image/png;base64,!!!)",
  ],
  [
    "html and entities",
    "<div>\u0000<b>x</b></div>\n\n&#0; &#xD800; &#x110000; &#65535; &#1114111; &nbsp; &amp;&lt;&gt;\n\n<!-- \u0001 -->",
  ],
  ["code fence 10,000 backticks", `${"`".repeat(10_000)}\nx\n${"`".repeat(10_000)}`],
  ["10,000 footnote-like refs", Array.from({ length: 10_000 }, (_, i) => `[${i}]: http://x/${i}`).join("\n")],
];

describe("markdown fuzz: pathological inputs", () => {
  for (const [name, markdown] of pathological) {
    it(`${name} (${markdown.length} chars)`, async () => {
      const outcome = await create(markdown, name);
      // A document, or a refusal in the contract's shape (checked in create).
      expect([201, 400, 413, 503], name).toContain(outcome.status);
    });
  }

  it("a 1 MB line is PAYLOAD_TOO_LARGE with the limit and the length", async () => {
    const response = await fetch(`${env.url}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${env.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "big", markdown: "y".repeat(1_000_000) }),
    });
    const text = await response.text();
    checkRestAnswer(response.status, response.headers.get("content-type"), text, "1 MB line");
    expect(response.status).toBe(413);
    expect(JSON.parse(text)).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
  });
});

// ---- random markdown ------------------------------------------------------------------------------

const inlineText = fc.oneof(
  { arbitrary: fc.string({ maxLength: 30 }), weight: 3 },
  { arbitrary: nastyString(30), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      ...oddities.split(" "),
      "\u0000",
      "\u0001",
      "\u001b[31m",
      "\u0085",
      "*",
      "_",
      "`",
      "[",
      "]",
      "(",
      ")",
      "<",
      ">",
      "&",
      "|",
      "\\",
      "!",
      "#",
    ),
    weight: 2,
  },
);
const inline: fc.Arbitrary<string> = fc.letrec<{ inline: string }>((tie) => ({
  inline: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    inlineText,
    tie("inline").map((t) => `*${t}*`),
    tie("inline").map((t) => `**${t}**`),
    tie("inline").map((t) => `~~${t}~~`),
    inlineText.map((t) => `\`${t}\``),
    fc.tuple(tie("inline"), inlineText).map(([t, u]) => `[${t}](${u.replace(/[\s()]/g, "")})`),
    fc.tuple(inlineText, fc.constantFrom("data:image/png;base64,AAAA", "http://x/y.png", "")).map(([t, u]) => `![${t}](${u})`),
    fc.constantFrom("  \n", "\\\n", "<br>", "<span>", "&amp;", "&#0;", "&#xFFFF;", "https://example.com/autolink"),
    fc.array(tie("inline"), { maxLength: 4 }).map((parts) => parts.join(" ")),
  ),
})).inline;

const block: fc.Arbitrary<string> = fc.letrec<{ block: string }>((tie) => ({
  block: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    inline,
    fc.tuple(fc.integer({ min: 1, max: 7 }), inline).map(([n, t]) => `${"#".repeat(n)} ${t}`),
    fc.array(tie("block"), { minLength: 1, maxLength: 3 }).map((items) => items.map((b) => `- ${b.replace(/\n/g, "\n  ")}`).join("\n")),
    fc
      .tuple(fc.integer({ min: 0, max: 1_000_000_000 }), fc.array(tie("block"), { minLength: 1, maxLength: 3 }))
      .map(([start, items]) => items.map((b, i) => `${start + i}. ${b.replace(/\n/g, "\n   ")}`).join("\n")),
    tie("block").map((b) =>
      b
        .split("\n")
        .map((l) => `> ${l}`)
        .join("\n"),
    ),
    fc
      .tuple(inlineText, fc.string({ maxLength: 80 }))
      .map(([lang, code]) => `\`\`\`${lang.replace(/[`\n]/g, "")}\n${code.replace(/```/g, "")}\n\`\`\``),
    fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 4 }), inlineText).map(([cols, rows, cell]) => {
      const c = cell.replace(/[|\n]/g, "");
      const row = `|${` ${c} |`.repeat(cols)}`;
      return [row, `|${"---|".repeat(cols)}`, ...Array.from({ length: rows }, () => row)].join("\n");
    }),
    fc.constantFrom("---", "***", "<div>\n*x*\n</div>", "- [ ] task\n- [x] done", "Term\n: definition", "Setext\n===", "    indented code"),
  ),
})).block;

const document = fc.array(block, { minLength: 1, maxLength: 8 }).map((blocks) => blocks.join("\n\n"));

describe("markdown fuzz: random documents", () => {
  it("renders random markdown into well-formed .docx, or refuses it in the contract's shape", async () => {
    let created = 0;
    await fc.assert(
      fc.asyncProperty(document, async (markdown) => {
        const outcome = await create(markdown, `markdown ${JSON.stringify(markdown.slice(0, 300))}`);
        if (outcome.status === 201) created++;
      }),
      fuzzParams(0x3d0c, 40),
    );
    expect(created).toBeGreaterThan(0);
  });
});

describe.skipIf(!soffice)("LibreOffice opens the fuzzed .docx", () => {
  it("converts every .docx kept from the fuzzing", async () => {
    expect(produced.length).toBeGreaterThan(20);
    const dir = await mkdtemp(join(tmpdir(), "wg-fuzz-lo-"));
    try {
      const files = await Promise.all(
        produced.map(async (bytes, i) => {
          const file = join(dir, `fuzz-${i}.docx`);
          await writeFile(file, bytes);
          return file;
        }),
      );
      // One conversion run; a private profile so parallel runs never share a lock.
      await promisify(execFile)(
        soffice!,
        [
          `-env:UserInstallation=${pathToFileURL(join(dir, "profile")).href}`,
          "--headless",
          "--convert-to",
          "txt:Text (encoded):UTF8",
          "--outdir",
          dir,
          ...files,
        ],
        { timeout: 240_000, maxBuffer: 16 << 20 },
      );
      const converted = new Set((await readdir(dir)).filter((f) => f.endsWith(".txt")));
      const missing = files.map((_, i) => `fuzz-${i}.txt`).filter((f) => !converted.has(f));
      expect(missing, "LibreOffice could not open these").toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
