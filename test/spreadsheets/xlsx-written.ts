// Reads an .xlsx the writer produced the way a strict consumer would, independently of the
// gateway's own readers: JSZip (CRCs checked) and fast-xml-parser (every part must be well-formed
// XML), with shared strings resolved and "_xHHHH_" decoded as Excel decodes it.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import JSZip from "jszip";

export interface WrittenCell {
  /** The `t` attribute (absent for numbers). */
  t?: string;
  /** The `s` attribute. */
  s?: number;
  /** `<v>` as written (a shared string's index for t="s"). */
  v?: string;
  /** `<f>`, decoded. */
  f?: string;
  /** The cell's text for t="s", "inlineStr" and "str", decoded. */
  text?: string;
}

export interface WrittenSheet {
  name: string;
  dimension: string;
  /** A1 → cell, in document order. */
  cells: Map<string, WrittenCell>;
  rowNumbers: number[];
}

export interface WrittenWorkbook {
  parts: Map<string, string>;
  sheets: WrittenSheet[];
  /** numFmtId of each cellXfs entry. */
  xfs: number[];
  /** Custom number formats: id → code. */
  numFmts: Map<number, string>;
  calcPr: Record<string, string>;
  title: string;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
  isArray: (name) => ["row", "c", "sheet", "si", "numFmt", "xf", "Override", "Relationship"].includes(name),
});

type Node = Record<string, unknown>;
const decodeX = (text: string) => text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
/** An element's text: a string, or an object with #text (when it has attributes), or "" when empty. */
function textOf(node: unknown): string {
  if (node === undefined || node === "") return "";
  if (typeof node === "string") return node;
  const text = (node as Node)["#text"];
  return typeof text === "string" ? text : "";
}

export async function readWritten(xlsx: Uint8Array): Promise<WrittenWorkbook> {
  const zip = await JSZip.loadAsync(xlsx, { checkCRC32: true });
  const parts = new Map<string, string>();
  for (const path of Object.keys(zip.files)) {
    const xml = await zip.file(path)!.async("string");
    const valid = XMLValidator.validate(xml);
    if (valid !== true) throw new Error(`${path} is not well-formed: ${JSON.stringify(valid.err)}`);
    parts.set(path, xml);
  }
  const shared = ((parser.parse(parts.get("xl/sharedStrings.xml")!) as Node)["sst"] as Node)["si"] as Node[] | undefined;
  const strings = (shared ?? []).map((si) => decodeX(textOf(si["t"])));
  const book = (parser.parse(parts.get("xl/workbook.xml")!) as Node)["workbook"] as Node;
  const sheetNodes = (book["sheets"] as Node)["sheet"] as Node[];
  const sheets = sheetNodes.map((sheet, i) =>
    readSheet(decodeX(String(sheet["name"])), parts.get(`xl/worksheets/sheet${i + 1}.xml`)!, strings),
  );
  const styles = (parser.parse(parts.get("xl/styles.xml")!) as Node)["styleSheet"] as Node;
  const xfs = ((styles["cellXfs"] as Node)["xf"] as Node[]).map((xf) => Number(xf["numFmtId"]));
  const numFmts = new Map<number, string>();
  for (const numFmt of ((styles["numFmts"] as Node | undefined)?.["numFmt"] as Node[] | undefined) ?? []) {
    numFmts.set(Number(numFmt["numFmtId"]), decodeX(String(numFmt["formatCode"])));
  }
  const core = (parser.parse(parts.get("docProps/core.xml")!) as Node)["cp:coreProperties"] as Node;
  return { parts, sheets, xfs, numFmts, calcPr: book["calcPr"] as Record<string, string>, title: textOf(core["dc:title"]) };
}

function readSheet(name: string, xml: string, strings: string[]): WrittenSheet {
  const worksheet = (parser.parse(xml) as Node)["worksheet"] as Node;
  const cells = new Map<string, WrittenCell>();
  const rowNumbers: number[] = [];
  const data = worksheet["sheetData"];
  for (const row of (typeof data === "object" ? ((data as Node)["row"] as Node[] | undefined) : undefined) ?? []) {
    rowNumbers.push(Number(row["r"]));
    for (const c of (row["c"] as Node[] | undefined) ?? []) {
      const cell: WrittenCell = {};
      if (c["t"] !== undefined) cell.t = String(c["t"]);
      if (c["s"] !== undefined) cell.s = Number(c["s"]);
      if (c["v"] !== undefined) cell.v = textOf(c["v"]);
      if (c["f"] !== undefined) cell.f = decodeX(textOf(c["f"]));
      if (cell.t === "s") cell.text = strings[Number(cell.v)];
      if (cell.t === "str") cell.text = decodeX(cell.v ?? "");
      if (cell.t === "inlineStr") cell.text = decodeX(textOf((c["is"] as Node)["t"]));
      cells.set(String(c["r"]), cell);
    }
  }
  return { name, dimension: String((worksheet["dimension"] as Node)["ref"]), cells, rowNumbers };
}
