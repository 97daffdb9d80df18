// OPC part names (ECMA-376 Part 2, §6.2.2 and Annex A): a zip entry name as a part name, and
// relationship targets resolved to part names. Checks compare names only after normalising them,
// so `word\_rels\x.rels`, `word/%5Frels/x.rels` and `Word/_RELS/X.rels` are all the relationship
// part word/_rels/x.rels (part names compare case-insensitively), and a package that spells one
// part two ways is refused.
import { unsupported, type PackageKind } from "./errors.ts";

/**
 * The part name a zip entry holds, without its leading "/": backslashes read as "/" (as Windows
 * zip tools and Word do), percent-escapes decoded. Refuses names no OPC reader could agree on: an
 * empty or dot segment, a segment ending in ".", a control character, a bad escape.
 */
export function partName(entryName: string, kind: PackageKind): string {
  let name = entryName.replaceAll("\\", "/");
  if (name.includes("%")) {
    try {
      name = decodeURIComponent(name);
    } catch {
      throw unsupported("malformed", kind, `a zip entry name (${printable(entryName)}) has a bad percent-escape`);
    }
    name = name.replaceAll("\\", "/");
  }
  // A leading "/" is tolerated (some zip tools write one); it is not part of the stored name.
  name = name.replace(/^\/+/, "");
  const bad = (why: string) => unsupported("malformed", kind, `the zip entry name ${printable(entryName)} ${why}`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw bad("holds a control character");
  for (const segment of name.split("/")) {
    if (segment === "") throw bad("has an empty segment");
    if (segment === "." || segment === "..") throw bad("has a dot segment");
    if (segment.endsWith(".")) throw bad("has a segment ending in a dot");
  }
  return name;
}

/** The key two spellings of one part name share: OPC compares part names ASCII case-insensitively. */
export const partKey = (name: string): string => name.toLowerCase();

/** A name for messages: at most 100 characters, control characters escaped. */
export function printable(name: string): string {
  if (/^[\x21-\x7e]{1,100}$/.test(name)) return name;
  // eslint-disable-next-line no-control-regex
  const shown = name.slice(0, 100).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return JSON.stringify(shown + (name.length > 100 ? "…" : ""));
}

/** The relationships part of a part ("" for the package): word/document.xml → word/_rels/document.xml.rels. */
export function relationshipsPartOf(source: string): string {
  const slash = source.lastIndexOf("/");
  return `${source.slice(0, slash + 1)}_rels/${source.slice(slash + 1)}.rels`;
}

/** Whether a part name is a relationships part, and of which source part ("" for the package). */
export function sourceOfRelationships(name: string): string | undefined {
  const match = /^((?:.*\/)?)_rels\/([^/]*)\.rels$/i.exec(name);
  if (!match) return undefined;
  return `${match[1]}${match[2]}`;
}

/** A target that names something outside the package whatever its TargetMode says: a URI with a scheme, or a network path. */
export const isAbsoluteReference = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || /^[/\\]{2}/.test(target);

/**
 * An internal relationship's target as a part name, resolved against its source part's folder as
 * a relative URI (RFC 3986), or undefined when it is not a part name.
 */
export function resolveTarget(source: string, target: string): string | undefined {
  const folder = source.slice(0, source.lastIndexOf("/") + 1);
  let path: string;
  try {
    path = decodeURIComponent(new URL(target.replaceAll("\\", "/"), `http://package/${folder}`).pathname);
  } catch {
    return undefined;
  }
  return path.replace(/^\/+/, "") || undefined;
}
