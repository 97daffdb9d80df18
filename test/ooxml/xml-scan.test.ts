// The fast scanner (src/ooxml/xml-scan.ts) against the full parser it stands in for: on every
// document it accepts, the same events (cut into chunks anywhere); everything outside its plain
// subset — whether the full parser accepts it or refuses it — is handed back (NotPlain), never
// accepted with other events nor refused in other words.
import { describe, expect, it } from "vitest";
import { Budget, XLSX } from "../../src/ooxml/index.ts";
import { XmlDecoder } from "../../src/ooxml/xml-decode.ts";
import { XmlParser, type XmlHandler } from "../../src/ooxml/xml-parse.ts";
import { NotPlain, XmlScanner } from "../../src/ooxml/xml-scan.ts";

const budget = () => new Budget({ entries: 10, expandedBytes: 1e9, xmlBytes: 1e9, memoryBytes: 1e9 }, XLSX);

/** Events as one string each; attributes read through attribute() by every local name, and whole. */
function recorder(events: string[], wanted: (depth: number) => boolean = () => true): XmlHandler & { wantsText(): boolean } {
  let depth = 0;
  return {
    open(element) {
      depth++;
      const names = Object.keys(element.attributes);
      const locals = names.map((name) => name.slice(name.indexOf(":") + 1));
      const looked = [...locals, "r", "missing"].map((local) => `${local}=${element.attribute(local) ?? "∅"}`);
      events.push(`open ${element.name} ${element.local} ${JSON.stringify(element.attributes)} ${looked.join(" ")}`);
    },
    close(name, local) {
      depth--;
      events.push(`close ${name} ${local}`);
    },
    text(text) {
      if (wanted(depth)) events.push(`text ${JSON.stringify(text)}`);
    },
    wantsText: () => wanted(depth),
  };
}

/** The full parser's events, texts joined as a reader joins them, or its refusal. */
function parsed(bytes: Uint8Array): string[] | Error {
  const events: string[] = [];
  try {
    const parser = new XmlParser("x.xml", budget(), recorder(events), { namespaces: false });
    const decoder = new XmlDecoder("x.xml", XLSX);
    parser.write(decoder.write(bytes));
    parser.write(decoder.end());
    parser.end();
  } catch (error) {
    return error as Error;
  }
  return joinTexts(events);
}

function joinTexts(events: string[]): string[] {
  const out: string[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if (event.startsWith("text ") && last?.startsWith("text ")) {
      out[out.length - 1] = `text ${JSON.stringify(JSON.parse(last.slice(5)) + JSON.parse(event.slice(5)))}`;
    } else out.push(event);
  }
  return out.filter((event) => event !== 'text ""');
}

/** The scanner's events with the bytes cut at `cuts`, or NotPlain / another error. */
function scanned(bytes: Uint8Array, cuts: number[]): string[] | Error {
  const events: string[] = [];
  try {
    const scanner = new XmlScanner(recorder(events));
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      scanner.write(bytes.subarray(from, cut));
      from = cut;
    }
    scanner.end();
  } catch (error) {
    return error as Error;
  }
  return joinTexts(events);
}

const encode = (text: string) => new TextEncoder().encode(text);
const sheet = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="m"><sheetData>${body}</sheetData></worksheet>`;

const PLAIN = [
  sheet(`<row r="1" spans="1:2"><c r="A1" t="s"><v>0</v></c><c r="B1" s="3"><v>1.5</v></c></row>`),
  sheet(`<row><c><v>1</v></c><c t="inlineStr"><is><t xml:space="preserve"> a  b </t></is></c></row>`),
  sheet(`<row r='2'><c r='A2' t='str'><f>"x"&amp;"&lt;y&gt;"</f><v>x&lt;y&gt;</v></c></row>`),
  sheet(`<row r="3"><c r="A3" t="inlineStr"><is><t>Ünïcødé ✓ 𝄞 &#233;&#x1F600; &quot;q&quot; &apos;</t></is></c></row>`),
  sheet(`<row r="4"><c r="A4" t="inlineStr"><is><t>line one\r\nline two\rthree\n&#13;&#10;</t></is></c></row>`),
  sheet(`<row r="5" x14ac:dyDescent="0.25"><c r="A5" x:s="2" s="1"/><c r="B5" x:r="Z9"/></row>`),
  `<x:worksheet xmlns:x="m"><x:sheetData><x:row><x:c x:r="C7"><x:v>2</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
  `\uFEFF<?xml version='1.0'?><sst count="2"><si><t>a]]b</t></si><si><r><t>b&gt;</t></r><rPh><t>ruby</t></rPh></si></sst>   \n`,
  `<a b="tab\there" c="nl\r\nthere" d="&amp;&#9;&#x20;x" e=">"  f = "sp"/>`,
  `<a>\t\n   <b/>\n</a>\n\n`,
];

const NOT_PLAIN = [
  // what the full parser accepts, but the scanner leaves to it
  `<a><!-- comment --><b/></a>`,
  `<a><![CDATA[<x>]]></a>`,
  `<a><?pi data?></a>`,
  `<?xml version="1.0" encoding="windows-1252"?><a>caf\u00e9</a>`,
  `<?xml version="1.1"?><a/>`,
  `<a\u00e9 b="1"/>`,
  `<a b\u00e9="1"/>`,
  // what the full parser refuses
  `<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>`,
  `<a>&e;</a>`,
  `<a>&#0;</a>`,
  `<a>&#xD800;</a>`,
  `<a>&amp</a>`,
  `<a>]]></a>`,
  `<a>\u0001</a>`,
  `<a b="<"/>`,
  `<a b="1" b="2"/>`,
  `<a b="1"c="2"/>`,
  `<a b=1/>`,
  `<a><b></a></b>`,
  `<a></b>`,
  `<a>`,
  `<a/><b/>`,
  `text<a/>`,
  `<a/>text`,
  ``,
  `<a>\uFFFE</a>`,
];

describe("the XML scanner", () => {
  it("gives the full parser's events for plain XML, however the bytes are cut", () => {
    for (const doc of PLAIN) {
      const bytes = encode(doc);
      const expected = parsed(bytes);
      expect(expected, doc).toBeInstanceOf(Array);
      expect(scanned(bytes, []), doc).toEqual(expected);
      for (let cut = 1; cut < bytes.length; cut++) expect(scanned(bytes, [cut]), `${doc} cut at ${cut}`).toEqual(expected);
      const everyByte = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
      expect(scanned(bytes, everyByte), doc).toEqual(expected);
    }
  });

  it("decodes no text the handler does not want, and still checks it", () => {
    const events: string[] = [];
    const scanner = new XmlScanner(recorder(events, (depth) => depth === 2));
    scanner.write(encode(`<a>skipped<b>kept &amp; decoded</b>tail</a>`));
    scanner.end();
    expect(events.filter((e) => e.startsWith("text"))).toEqual(['text "kept & decoded"']);
    const checked = new XmlScanner(recorder([], () => false));
    expect(() => {
      checked.write(encode(`<a>&bogus;</a>`));
      checked.end();
    }).toThrow(NotPlain);
  });

  it("hands back everything else, whether the full parser accepts it or refuses it", () => {
    for (const doc of NOT_PLAIN) {
      const bytes = encode(doc);
      expect(scanned(bytes, []), doc).toBeInstanceOf(NotPlain);
      for (let cut = 1; cut < bytes.length; cut++) expect(scanned(bytes, [cut]), `${doc} cut at ${cut}`).toBeInstanceOf(NotPlain);
    }
    // UTF-16, invalid UTF-8, and an element nested past the depth bound.
    expect(scanned(new Uint8Array([0xff, 0xfe, 0x3c, 0, 0x61, 0, 0x2f, 0, 0x3e, 0]), [])).toBeInstanceOf(NotPlain);
    expect(scanned(new Uint8Array([0x3c, 0x61, 0x3e, 0xc3, 0x28, 0x3c, 0x2f, 0x61, 0x3e]), [])).toBeInstanceOf(NotPlain);
    expect(scanned(encode("<a>".repeat(300) + "</a>".repeat(300)), [])).toBeInstanceOf(NotPlain);
  });

  it("carries no token past 1 MB from chunk to chunk: a longer one is the full parser's", () => {
    const scanner = new XmlScanner(recorder([]));
    scanner.write(encode("<a>"));
    const long = new Uint8Array(300_000).fill(0x78);
    expect(() => {
      for (let i = 0; i < 4; i++) scanner.write(long);
    }).toThrow(NotPlain);
  });
  it("on mutated documents it gives the full parser's events or hands the document back, never other events nor a refusal of its own", () => {
    const pieces = [
      "<",
      ">",
      "&",
      ";",
      '"',
      "'",
      "=",
      "/",
      " ",
      "\r",
      "\n",
      "\t",
      "]",
      "]]>",
      "!",
      "?",
      "é",
      "\u0001",
      "&#65;",
      "&#0;",
      "&lt;",
      "&bogus;",
      "<!--",
      "<![CDATA[",
      ":",
      "a",
      "c",
      "\uFFFE",
      "</c>",
      "<c>",
    ];
    let seed = 38;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let scannedSame = 0;
    for (let run = 0; run < 3000; run++) {
      let doc = PLAIN[run % PLAIN.length]!;
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
        const at = Math.floor(random() * doc.length);
        const piece = pieces[Math.floor(random() * pieces.length)]!;
        const op = random();
        doc =
          op < 0.4
            ? doc.slice(0, at) + piece + doc.slice(at)
            : op < 0.7
              ? doc.slice(0, at) + doc.slice(at + 1)
              : doc.slice(0, at) + piece + doc.slice(at + 1);
      }
      const bytes = encode(doc);
      const fast = scanned(bytes, [Math.floor(random() * bytes.length)]);
      if (fast instanceof NotPlain) continue;
      expect(fast, doc).toEqual(parsed(bytes));
      scannedSame++;
    }
    // Many mutations leave plain XML (a changed name or text): those were compared, not all handed back.
    expect(scannedSame).toBeGreaterThan(200);
  });
});
