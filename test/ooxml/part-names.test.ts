// OPC part names as src/ooxml reads them: every spelling of one part normalised to one name before
// any check, names no reader could agree on refused, relationship targets resolved.
import { describe, expect, it } from "vitest";
import { DOCX, UnsupportedPackage } from "../../src/ooxml/index.ts";
import { partName, resolveTarget, sourceOfRelationships } from "../../src/ooxml/part-names.ts";

describe("part names", () => {
  it("backslashes, percent-escapes and a leading slash name the same part", () => {
    for (const spelling of [
      "word\\_rels\\settings.xml.rels",
      "word/%5Frels/settings.xml.rels",
      "/word/_rels/settings.xml.rels",
      "word%2F_rels%5Csettings.xml.rels",
    ]) {
      expect(partName(spelling, DOCX)).toBe("word/_rels/settings.xml.rels");
    }
  });

  it("names no reader could agree on are refused", () => {
    for (const bad of [
      "word//document.xml",
      "word/./document.xml",
      "word/../document.xml",
      "word/document.",
      "word/doc%ument.xml",
      "word/a\u0000b.xml",
      "%2e%2e/x.xml",
    ]) {
      expect(() => partName(bad, DOCX), bad).toThrow(UnsupportedPackage);
    }
  });

  it("relationships parts and their sources; targets resolved from the source's folder", () => {
    expect(sourceOfRelationships("_rels/.rels")).toBe("");
    expect(sourceOfRelationships("word/_rels/document.xml.rels")).toBe("word/document.xml");
    expect(sourceOfRelationships("word/my_rels/x.rels")).toBeUndefined();
    expect(resolveTarget("word/document.xml", "media/image1.png")).toBe("word/media/image1.png");
    expect(resolveTarget("word/document.xml", "/word/styles.xml")).toBe("word/styles.xml");
    expect(resolveTarget("word/document.xml", "../customXml/item1.xml")).toBe("customXml/item1.xml");
    expect(resolveTarget("", "xl/workbook.xml")).toBe("xl/workbook.xml");
  });
});
