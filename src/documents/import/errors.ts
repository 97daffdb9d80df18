// The ways an upload is refused: not a .docx we will read (415), or too big once opened (413).
import { DOCX, PackageTooLarge, unsupported, type UnsupportedPackage } from "../../ooxml/index.ts";

export const notDocx = (reason: string): UnsupportedPackage => unsupported("malformed", DOCX, reason);

export const tooMuchText = (limit: number): PackageTooLarge =>
  new PackageTooLarge("text", `The .docx holds more than ${limit} characters of text; send a smaller document`, {
    reason: "docx_text",
    limit,
  });

export const tooManyElements = (limit: number): PackageTooLarge =>
  new PackageTooLarge("xml", `The .docx holds more than ${limit} XML elements; send a smaller or simpler document`, {
    reason: "docx_elements",
    limit,
  });
