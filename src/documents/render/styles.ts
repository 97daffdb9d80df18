// Word styles and list numbering shared by every rendered document. Built once per process
// (per worker thread): each render only passes these frozen option objects to docx.
import {
  AlignmentType,
  LevelFormat,
  type ILevelsOptions,
  type INumberingOptions,
  type IStylesOptions,
  type NumberingDefinition,
} from "docx";

export const MONOSPACE_FONT = "Consolas";
export const CODE_SHADING_FILL = "F2F2F2";
export const QUOTE_STYLE = "Quote";
export const CODE_STYLE = "SourceCode";
/** Inline code's character style: pandoc's and Word users' "Verbatim Char", which pandoc reads back as Code. */
export const CODE_CHAR_STYLE = "VerbatimChar";
/** Word's Hyperlink colour, for code links (whose character style is Verbatim Char, not Hyperlink). */
export const HYPERLINK_COLOR = "0563C1";
/** A remote image's placeholder (never fetched): small grey text in a thin frame. */
export const IMAGE_STYLE = "ImagePlaceholder";
/** Space after a paragraph (6 pt), and after a code block's last line, which its style keeps tight. */
export const PARAGRAPH_AFTER = 120;

/** Twips per list level / blockquote level. */
export const INDENT_STEP = 720;
export const HANGING = 360;
/** Word numbering has levels 0..8; deeper markdown lists keep indenting but reuse level 8's format. */
export const MAX_WORD_LEVEL = 8;

export const BULLET_REFERENCE = "md-bullet";

const BULLET_GLYPHS = ["•", "◦", "▪"] as const;

const levelIndent = (level: number) => ({ left: INDENT_STEP * (level + 1), hanging: HANGING });

const bulletLevels: readonly ILevelsOptions[] = Array.from({ length: MAX_WORD_LEVEL + 1 }, (_, level) => ({
  level,
  format: LevelFormat.BULLET,
  text: BULLET_GLYPHS[level % BULLET_GLYPHS.length] ?? "•",
  alignment: AlignmentType.LEFT,
  style: { paragraph: { indent: levelIndent(level) } },
}));

const decimalDefinitions = new Map<number, NumberingDefinition>();

/**
 * The decimal list definition whose every level starts at `start`. Each markdown ordered list is
 * its own numbering instance (its own w:num, with a w:startOverride of `start`), so it restarts at
 * its own start number whatever lists came before it. Cached per process.
 */
export function decimalDefinition(start: number): NumberingDefinition {
  let definition = decimalDefinitions.get(start);
  if (!definition) {
    definition = {
      reference: `md-decimal-${start}`,
      levels: Array.from({ length: MAX_WORD_LEVEL + 1 }, (_, level) => ({
        level,
        format: LevelFormat.DECIMAL,
        text: `%${level + 1}.`,
        start,
        alignment: AlignmentType.LEFT,
        style: { paragraph: { indent: levelIndent(level) } },
      })),
    };
    // Bounded: a document only has so many distinct start numbers worth caching.
    if (decimalDefinitions.size < 1024) decimalDefinitions.set(start, definition);
  }
  return definition;
}

export const numbering: INumberingOptions = {
  config: [{ reference: BULLET_REFERENCE, levels: bulletLevels }, decimalDefinition(1)],
};

const heading = (size: number, outlineLevel: number) => ({
  run: { bold: true, size, color: "1F3864" },
  paragraph: { spacing: { before: 240, after: 120 }, keepNext: true, outlineLevel },
});

export const styles: IStylesOptions = {
  default: {
    document: { run: { font: "Calibri", size: 22 }, paragraph: { spacing: { after: PARAGRAPH_AFTER } } },
    heading1: heading(36, 0),
    heading2: heading(30, 1),
    heading3: heading(26, 2),
    heading4: heading(24, 3),
    heading5: heading(22, 4),
    heading6: heading(22, 5),
  },
  paragraphStyles: [
    {
      id: QUOTE_STYLE,
      name: "Quote",
      basedOn: "Normal",
      next: "Normal",
      quickFormat: true,
      run: { italics: true, color: "404040" },
      paragraph: {
        indent: { left: INDENT_STEP },
        border: { left: { style: "single", size: 12, color: "A6A6A6", space: 8 } },
      },
    },
    {
      id: CODE_STYLE,
      name: "Source Code",
      basedOn: "Normal",
      quickFormat: true,
      run: { font: MONOSPACE_FONT, size: 20 },
      paragraph: { spacing: { before: 0, after: 0, line: 240 }, shading: { type: "clear", color: "auto", fill: CODE_SHADING_FILL } },
    },
  ],
  characterStyles: [
    {
      id: CODE_CHAR_STYLE,
      name: "Verbatim Char",
      // No basedOn: docx does not define DefaultParagraphFont, and pandoc's reader skips a style
      // whose parent is missing (it then reads the runs as plain text, not Code).
      quickFormat: true,
      run: { font: MONOSPACE_FONT, size: 20 },
    },
    {
      id: IMAGE_STYLE,
      name: "Image Placeholder",
      quickFormat: true,
      run: { color: "595959", size: 18, border: { style: "single", size: 4, color: "A6A6A6", space: 1 } },
    },
  ],
};
