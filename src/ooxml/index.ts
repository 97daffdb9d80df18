// Office Open XML packages (OPC, ECMA-376 Part 2) read safely: bounded zip reading, XML decoded and
// parsed as XML with DTDs refused, part names normalised, content types and relationships checked,
// and packages rewritten from what was parsed. Imports only src/core and packages.
export { Budget, type PackageLimits } from "./budget.ts";
export {
  DOCX,
  XLSX,
  PackageTooLarge,
  UnsupportedPackage,
  unsupported,
  type PackageKind,
  type PackageLimit,
  type UnsupportedReason,
} from "./errors.ts";
export { HYPERLINK, OFFICE_DOCUMENT, OpcPackage, type OpenOptions } from "./package.ts";
export { isXmlContentType, isXmlName, looksLikeXml, parseXmlPart, XmlPartReader } from "./parts.ts";
export { printable, relationshipsPartOf, resolveTarget } from "./part-names.ts";
export { typeName, type Relationship } from "./relationships.ts";
export { repack, type RepackPart } from "./repack.ts";
export { MAX_XML_DEPTH, type XmlElement, type XmlHandler, type XmlParserOptions } from "./xml-parse.ts";
export { scanXmlPart } from "./xml-scan.ts";
export { XmlWriter } from "./xml-write.ts";
export { inflateItem, readItem, type ZipItem } from "./zip-read.ts";
