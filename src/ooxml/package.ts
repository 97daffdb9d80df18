// An OPC package (ECMA-376 Part 2) opened for reading, trusting nothing in it: the zip's directory
// (./zip-read.ts), part names normalised (./part-names.ts), [Content_Types].xml and every
// relationships part parsed by a real XML parser with DTDs refused and checked (./content-types.ts,
// ./relationships.ts). Other parts are left for the format's reader to stream (./parts.ts).
import { Budget, type PackageLimits } from "./budget.ts";
import { CONTENT_TYPES_PART, ContentTypes } from "./content-types.ts";
import { unsupported, type PackageKind } from "./errors.ts";
import { partKey, relationshipsPartOf, sourceOfRelationships } from "./part-names.ts";
import { readRelationships, type Relationship } from "./relationships.ts";
import { inflateItem, openZip, type ZipItem } from "./zip-read.ts";

export const OFFICE_DOCUMENT = [
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument",
  "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument",
];
export const HYPERLINK = [
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink",
  "http://purl.oclc.org/ooxml/officeDocument/relationships/hyperlink",
];

export interface OpenOptions {
  kind: PackageKind;
  limits: PackageLimits;
  /** Relationship types that may point outside the package; default: hyperlinks only. */
  allowExternal?: (type: string) => boolean;
}

export class OpcPackage {
  private readonly byKey = new Map<string, ZipItem>();
  private readonly relationshipsBySource = new Map<string, Relationship[]>();
  /** Relationships parts, written back from what was parsed, by part name. */
  readonly rewritten = new Map<string, string>();

  private constructor(
    readonly items: readonly ZipItem[],
    readonly budget: Budget,
    readonly contentTypes: ContentTypes,
  ) {
    for (const item of items) this.byKey.set(partKey(item.name), item);
  }

  static open(bytes: Uint8Array, options: OpenOptions): OpcPackage {
    const budget = new Budget(options.limits, options.kind);
    // The upload itself is held for as long as the package is read.
    budget.hold(bytes.byteLength);
    const items = openZip(bytes, options.limits.entries, options.kind);
    const find = (name: string) => items.find((item) => partKey(item.name) === partKey(name));
    const typesItem = find(CONTENT_TYPES_PART);
    if (!typesItem || !find("_rels/.rels")) {
      // A zip bomb is one whatever else it lacks: every entry is inflated (and counted, never kept)
      // first, so it is refused as too large (413) rather than as not a package (415).
      for (const item of items) inflateItem(item, budget, () => undefined);
      const missing = typesItem ? "_rels/.rels" : CONTENT_TYPES_PART;
      throw unsupported("not-package", options.kind, `it has no ${missing} (not an Office Open XML package)`);
    }
    const pkg = new OpcPackage(items, budget, ContentTypes.read(typesItem, budget));
    const allowExternal = options.allowExternal ?? ((type: string) => HYPERLINK.includes(type));
    for (const item of items) {
      const source = sourceOfRelationships(item.name);
      if (source === undefined) continue;
      const { relationships, xml } = readRelationships(item, source, budget, allowExternal);
      pkg.relationshipsBySource.set(partKey(source), relationships);
      pkg.rewritten.set(item.name, xml);
    }
    return pkg;
  }

  get kind(): PackageKind {
    return this.budget.kind;
  }

  /** A part by name (any spelling of it). */
  get(name: string): ZipItem | undefined {
    return this.byKey.get(partKey(name));
  }

  contentType(name: string): string | undefined {
    return this.contentTypes.of(name);
  }

  /** The relationships of a part ("" for the package's own). */
  relationships(source: string): readonly Relationship[] {
    return this.relationshipsBySource.get(partKey(source)) ?? [];
  }

  /** The first internal relationship of `source` whose type is one of `types`, and its part. */
  related(source: string, types: readonly string[]): { relationship: Relationship; item: ZipItem | undefined } | undefined {
    const relationship = this.relationships(source).find((r) => !r.external && types.includes(r.type));
    return relationship && { relationship, item: relationship.part === undefined ? undefined : this.get(relationship.part) };
  }

  /** The package's main part (the officeDocument relationship's target): it must exist. */
  mainPart(): ZipItem {
    const main = this.related("", OFFICE_DOCUMENT);
    if (!main) throw unsupported("not-package", this.kind, "it has no main document (no officeDocument relationship)");
    if (!main.item)
      throw unsupported(
        "not-package",
        this.kind,
        `its main document part ${main.relationship.part ?? main.relationship.target} is missing`,
      );
    return main.item;
  }

  /** Whether a part is a relationships part (written back from what was parsed, see `rewritten`). */
  static isRelationshipsPart(name: string): boolean {
    return sourceOfRelationships(name) !== undefined;
  }

  static relationshipsPartOf = relationshipsPartOf;
}
