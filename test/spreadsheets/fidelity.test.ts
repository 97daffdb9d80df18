// Fidelity against LibreOffice Calc: the corpus (fidelity/corpus.ts, over 300 formulas on the
// functions CONTRACT §11 names) is computed by the engine and by Calc, which opens the corpus as a
// flat ODF spreadsheet and computes it on load, and the two are compared cell by cell. At least 99%
// must agree; every difference must be listed, with its reason, in fidelity/expected.ts, and every
// listed difference must still be one. Without soffice the file is skipped (one line says so),
// except under CI=true where that is a failure (test/helpers/external.ts).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellAddress } from "../../src/spreadsheets/cells/cells.ts";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import type { Scalar } from "../../src/spreadsheets/formula/values.ts";
import { findProgram, requireProgram } from "../helpers/external.ts";
import { DATA, FORMULAS } from "./fidelity/corpus.ts";
import { CALC_EQUIVALENTS, KNOWN_DIFFERENCES } from "./fidelity/expected.ts";
import { corpusFods, parseCsv } from "./fidelity/fods.ts";

const run = promisify(execFile);
const soffice = requireProgram("soffice", {
  envVar: "SOFFICE_PATH",
  install: "apt-get install -y libreoffice-calc-nogui",
  purpose: "the spreadsheet fidelity test (test/spreadsheets/fidelity.test.ts)",
});

type Plain = number | string | boolean | { error: string } | null;

/** Calc's own error codes as Calc itself writes them into .xlsx (invalid argument → #VALUE!, no convergence → #N/A). */
const CALC_ERRORS: Record<string, string> = { "Err:502": "#VALUE!", "Err:504": "#VALUE!", "Err:523": "#N/A" };

function calcValue([text = "", logical, error, numeric, number]: string[]): Plain {
  if (error === "TRUE") return { error: CALC_ERRORS[text] ?? text };
  if (numeric === "TRUE" || logical === "TRUE") {
    const n = Number(number);
    return logical === "TRUE" ? n !== 0 : n;
  }
  return text;
}

function engineValues(): Plain[] {
  const { workbook } = Workbook.create(
    [
      { name: "Data", values: DATA.map((row) => row.map((v) => (typeof v === "string" && v.startsWith("=") ? null : v))) },
      { name: "Calc", values: [] },
    ],
    "raw",
  );
  DATA.forEach((row, r) =>
    row.forEach((v, c) => {
      if (typeof v === "string" && v.startsWith("=")) workbook.write(`Data!${cellAddress(r, c)}`, [[v]]);
    }),
  );
  workbook.write(
    `Calc!A1:A${FORMULAS.length}`,
    FORMULAS.map((f) => [f]),
  );
  const values: Plain[] = FORMULAS.map(() => null);
  const calc = workbook.toData().sheets[1]!;
  for (const [row, cells] of calc.rows()) values[row] = plain((cells[0]?.value ?? null) as Scalar);
  return values;
}

const plain = (v: Scalar): Plain => (v !== null && typeof v === "object" ? { error: v.error } : v);

function same(a: Plain, b: Plain): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
  return JSON.stringify(a) === JSON.stringify(b);
}

describe.skipIf(!soffice)("the engine against LibreOffice Calc", () => {
  let dir = "";
  let calc: Plain[] = [];
  let engine: Plain[] = [];

  beforeAll(async () => {
    engine = engineValues();
    dir = await mkdtemp(join(tmpdir(), "wg-sheets-fidelity-"));
    const forCalc = FORMULAS.map((f) => CALC_EQUIVALENTS[f] ?? f);
    await writeFile(join(dir, "corpus.fods"), corpusFods(DATA, forCalc));
    // Niced: the machine is shared, and Calc's start-up is the heaviest part of this test.
    const nice = findProgram("nice");
    const command = nice ? [nice, "-n", "10", soffice!] : [soffice!];
    await run(
      command[0]!,
      [
        ...command.slice(1),
        `-env:UserInstallation=${pathToFileURL(join(dir, "profile")).href}`,
        "--headless",
        "--convert-to",
        // Comma-separated, quoted text, UTF-8, values as shown, the second sheet ("Calc") only.
        "csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,false,true,false,false,2",
        "--outdir",
        dir,
        join(dir, "corpus.fods"),
      ],
      { timeout: 120_000 },
    );
    const rows = parseCsv(await readFile(join(dir, "corpus-Calc.csv"), "utf8"));
    calc = FORMULAS.map((_, i) => calcValue(rows[i] ?? []));
  }, 180_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("has a corpus of at least 300 formulas", () => {
    expect(FORMULAS.length).toBeGreaterThanOrEqual(300);
    expect(new Set(FORMULAS).size).toBe(FORMULAS.length);
  });

  it("computes at least 99% of the corpus as Calc does, and every difference is a listed one", () => {
    const differences = FORMULAS.flatMap((f, i) =>
      same(engine[i] ?? null, calc[i] ?? null) ? [] : [{ formula: f, engine: engine[i], calc: calc[i] }],
    );
    const unlisted = differences.filter((d) => !(d.formula in KNOWN_DIFFERENCES));
    if (process.env["FIDELITY_DUMP"]) console.log(JSON.stringify(unlisted, null, 1));
    expect(unlisted).toEqual([]);
    const stale = Object.keys(KNOWN_DIFFERENCES).filter((f) => !differences.some((d) => d.formula === f));
    expect(stale).toEqual([]);
    expect(1 - differences.length / FORMULAS.length).toBeGreaterThanOrEqual(0.99);
  });
});
