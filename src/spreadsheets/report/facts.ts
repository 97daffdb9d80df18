// What an import found that the workbook does not keep, as warnings that stay with it: formulas
// kept as their values (links to other workbooks, refused functions), array formulas and data
// tables computed only in part, formula cells the writer saved no value for, and the parts of the
// package (charts, pivot tables, comments…) the gateway's workbook has no place for.
import type { KeptValues } from "./report.ts";
import type { ImportFacts, WorkbookWarning } from "./types.ts";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
const MAX_LINKS = 20;
const MAX_LINK_TEXT = 200;

/** What each feature is called in a warning, and what became of it. */
const FEATURES: Record<string, { label: string; fate?: string }> = {
  charts: { label: "charts" },
  drawings: { label: "drawings (shapes, text boxes)" },
  images: { label: "images" },
  pivotTables: {
    label: "pivot tables",
    fate: "their cells keep the values the file saved, as constants; the tables themselves (and their refresh) are not kept",
  },
  comments: { label: "comments and notes" },
  dataConnections: { label: "data connections", fate: "the cells keep the values last loaded; nothing is refreshed" },
  queryTables: { label: "query tables", fate: "the cells keep the values last loaded; nothing is refreshed" },
  slicers: { label: "slicers and timelines" },
  formControls: { label: "form and ActiveX controls" },
  conditionalFormatting: { label: "conditional formats" },
  dataValidation: { label: "data validation rules" },
  mergedCells: { label: "merged cells", fate: "each cell keeps its own value" },
  hyperlinks: { label: "cell hyperlinks", fate: "the cells keep their text" },
};
const NOT_KEPT = "the gateway keeps cells, formulas and number formats, and the .xlsx it writes has none of them";

function keptWarnings(kept: { external: KeptValues; refused: KeptValues } | null, links: string[]): WorkbookWarning[] {
  const out: WorkbookWarning[] = [];
  const external = kept?.external;
  if ((external && external.count > 0) || links.length > 0) {
    const count = external?.count ?? 0;
    const shown = links.slice(0, MAX_LINKS).map((link, i) => `[${i + 1}] ${link.slice(0, MAX_LINK_TEXT)}`);
    out.push({
      code: "EXTERNAL_LINK",
      count,
      cells: external?.first.list ?? [],
      links: shown,
      message:
        count > 0
          ? `${plural(count, "cell")} referred to other workbooks; the gateway never opens other files, so ${count === 1 ? "it keeps" : "they keep"} the value the file saved, without ${count === 1 ? "its formula" : "their formulas"}.`
          : `The file links to ${plural(links.length, "other workbook")}; no cell refers to ${links.length === 1 ? "it" : "them"}, and the links are not kept.`,
    });
  }
  const refused = kept?.refused;
  if (refused && refused.count > 0) {
    out.push({
      code: "FORMULA_REFUSED",
      count: refused.count,
      cells: refused.first.list,
      message: `${plural(refused.count, "cell")} held formulas the gateway refuses (DDE, WEBSERVICE, RTD, CALL, REGISTER.ID, or a HYPERLINK to something other than http, https or mailto): ${refused.count === 1 ? "it keeps" : "they keep"} the value the file saved, without ${refused.count === 1 ? "its formula" : "their formulas"}.`,
    });
  }
  return out;
}

function partWarnings(facts: ImportFacts): WorkbookWarning[] {
  const out: WorkbookWarning[] = [];
  if (facts.dataTables.count > 0)
    out.push({
      code: "DATA_TABLE",
      count: facts.dataTables.count,
      cells: facts.dataTables.ranges,
      message: `${plural(facts.dataTables.count, "what-if data table")}: ${facts.dataTables.count === 1 ? "its" : "their"} cells keep the values the file saved, as constants, and are not computed again.`,
    });
  if (facts.skippedSheets.length > 0)
    out.push({
      code: "NOT_KEPT",
      feature: "chartsheets",
      count: facts.skippedSheets.length,
      cells: [],
      message: `The file's chartsheets and dialog sheets (${facts.skippedSheets.map((name) => JSON.stringify(name)).join(", ")}) are not imported: they hold no cells.`,
    });
  for (const [feature, count] of [...Object.entries(facts.parts), ...Object.entries(facts.sheetItems)]) {
    if (count <= 0) continue;
    const { label, fate } = FEATURES[feature] ?? { label: feature };
    out.push({
      code: "NOT_KEPT",
      feature,
      count,
      cells: [],
      message: `The file's ${label} (${count.toLocaleString("en")}) are not kept: ${fate ?? NOT_KEPT}.`,
    });
  }
  return out;
}

/** The import's facts as the warnings that stay with the workbook. */
export function factWarnings(
  facts: ImportFacts | undefined,
  kept: { external: KeptValues; refused: KeptValues } | null,
  unchecked: { count: number; cells: string[] },
): WorkbookWarning[] {
  const out = keptWarnings(kept, facts?.externalLinks ?? []);
  if (facts) out.push(...partWarnings(facts));
  if (unchecked.count > 0)
    out.push({
      code: "NOT_CHECKED",
      count: unchecked.count,
      cells: unchecked.cells,
      message: `${plural(unchecked.count, "formula cell")} came without a value saved by the file's writer (some libraries write formulas without computing them), so the gateway's ${unchecked.count === 1 ? "value" : "values"} could not be compared with the writer's.`,
    });
  return out;
}
