// Why a package is refused, as typed errors the readers throw and the surfaces map: a file we will
// not read (415 UNSUPPORTED_MEDIA_TYPE) or one past a limit (413 PAYLOAD_TOO_LARGE). Every message
// names the format (".docx document", ".xlsx workbook") the caller sent.
import { GatewayError } from "../core/errors.ts";

/** What the caller sent, for messages: `name` as in "the .docx", `noun` as in "not a .docx document". */
export interface PackageKind {
  name: string;
  noun: string;
}

export const DOCX: PackageKind = { name: ".docx", noun: ".docx document" };
export const XLSX: PackageKind = { name: ".xlsx", noun: ".xlsx workbook" };

/** Why a file is not one we read: not a zip, an encrypted Office file, macros, a DTD, a broken package… */
export type UnsupportedReason = "not-zip" | "encrypted" | "macros" | "not-package" | "malformed" | "hostile";

export class UnsupportedPackage extends GatewayError {
  constructor(
    readonly reason: UnsupportedReason,
    kind: PackageKind,
    explanation: string,
  ) {
    super("UNSUPPORTED_MEDIA_TYPE", `The upload is not a ${kind.noun} that can be imported: ${explanation}`);
  }
}

/** Which bound a package went past. */
export type PackageLimit = "entries" | "expanded" | "xml" | "text" | "memory" | "cells" | "cell-text" | "sheets" | "depth";

export class PackageTooLarge extends GatewayError {
  constructor(
    readonly limit: PackageLimit,
    message: string,
    details: Record<string, unknown>,
  ) {
    super("PAYLOAD_TOO_LARGE", message, { details });
  }
}

export const unsupported = (reason: UnsupportedReason, kind: PackageKind, explanation: string): UnsupportedPackage =>
  new UnsupportedPackage(reason, kind, explanation);
