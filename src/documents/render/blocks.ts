// What the document builder (./render.ts) produces for the body, and what the packager
// (./package.ts) and the footnotes (./footnotes.ts) take.
import { FileChild, type IParagraphOptions } from "docx";
import { RawXml } from "./raw-xml.ts";

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A paragraph as its options: written as XML by ./paragraph-xml.ts, or by docx when it holds an image. */
export type ParagraphProps = Writable<IParagraphOptions>;

/** A body paragraph, or a table (raw XML, or docx's when a cell holds a link or an image). */
export type Block = ParagraphProps | FileChild | RawXml;

export const isParagraph = (block: Block): block is ParagraphProps => !(block instanceof FileChild || block instanceof RawXml);
