// LibreOffice Calc as the peer column: headless soffice opens every corpus workbook with
// recalculation forced on load (a fresh user profile whose OOXMLRecalcMode is 0, "always", so Calc
// computes each formula itself instead of keeping Excel's cached values) and saves it as .xlsx;
// the values it writes for the formula cells are its results. One soffice run converts the lot.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { formulaCells } from "./cells.ts";
import type { CorpusWorkbook } from "./manifest.ts";
import { cellKey, type EngineResult, type Got } from "./score.ts";

const run = promisify(execFile);

const PROFILE = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`;

/** Calc's own error codes as it writes them into .xlsx, as Excel's kinds (see fidelity.test.ts). */
const CALC_ERRORS: Record<string, string> = { "Err:502": "#VALUE!", "Err:504": "#VALUE!", "Err:523": "#N/A" };

export interface LibreOfficeRun {
  /** Per workbook name: what Calc computed. */
  results: Map<string, EngineResult>;
  version: string;
  seconds: number;
}

/** Converts the workbooks with `soffice` (recalculating each on load) and reads Calc's values back. */
export async function libreOfficeValues(soffice: string, workbooks: CorpusWorkbook[], nice?: string): Promise<LibreOfficeRun> {
  const dir = mkdtempSync(join(tmpdir(), "wg-excel-corpus-lo-"));
  try {
    const profile = join(dir, "profile");
    mkdirSync(join(profile, "user"), { recursive: true });
    writeFileSync(join(profile, "user", "registrymodifications.xcu"), PROFILE);
    mkdirSync(join(dir, "in"));
    mkdirSync(join(dir, "out"));
    const inputs = workbooks.map((w, i) => {
      const file = join(dir, "in", `w${i}.xlsx`);
      copyFileSync(w.file, file);
      return file;
    });
    const command = nice ? [nice, "-n", "10", soffice] : [soffice];
    const args = [
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      "--headless",
      "--norestore",
      "--convert-to",
      "xlsx",
      "--outdir",
      join(dir, "out"),
    ];
    const started = performance.now();
    await run(command[0]!, [...command.slice(1), ...args, ...inputs], { timeout: 1_200_000, maxBuffer: 16 * 1024 * 1024 });
    const seconds = (performance.now() - started) / 1000;
    const { stdout } = await run(soffice, [`-env:UserInstallation=${pathToFileURL(profile).href}`, "--version"], { timeout: 60_000 });
    const results = new Map<string, EngineResult>();
    workbooks.forEach((w, i) => {
      const out = join(dir, "out", `w${i}.xlsx`);
      if (!existsSync(out)) {
        results.set(w.name, { values: new Map(), failed: "LibreOffice wrote no file" });
        return;
      }
      const values = new Map<string, Got>();
      for (const cell of formulaCells(readFileSync(out)).cells) {
        const e = cell.expected;
        values.set(cellKey(cell.sheet, cell.address), typeof e === "object" ? { error: CALC_ERRORS[e.error] ?? e.error } : e);
      }
      results.set(w.name, { values });
    });
    return { results, version: stdout.trim(), seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
