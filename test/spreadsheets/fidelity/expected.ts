// Where the comparison with LibreOffice Calc needs a word: formulas Calc 7.4 cannot compute, and
// the differences between the engine and Calc, each with its reason.

/**
 * Formulas whose function Calc 7.4 lacks (XLOOKUP arrived in Calc 24.8): Calc computes the
 * equivalent formula given here instead, which must give what Excel documents for the original.
 */
export const CALC_EQUIVALENTS: Record<string, string> = {
  '=XLOOKUP("West",Data!K2:K9,Data!M2:M9)': '=INDEX(Data!M2:M9,MATCH("West",Data!K2:K9,0))',
  '=XLOOKUP("Nope",Data!K2:K9,Data!M2:M9,"none")': '=IFERROR(INDEX(Data!M2:M9,MATCH("Nope",Data!K2:K9,0)),"none")',
  '=XLOOKUP("Nope",Data!K2:K9,Data!M2:M9)': '=INDEX(Data!M2:M9,MATCH("Nope",Data!K2:K9,0))',
  '=XLOOKUP("West",Data!K2:K9,Data!M2:M9,,0,-1)': '=INDEX(Data!M2:M9,SUMPRODUCT(MAX((Data!K2:K9="West")*ROW(Data!K2:K9)))-1)',
  "=XLOOKUP(35,Data!E1:E10,Data!F1:F10,,-1)": "=VLOOKUP(35,Data!E1:F10,2,TRUE)",
  "=XLOOKUP(35,Data!E1:E10,Data!F1:F10,,1)": "=INDEX(Data!F1:F10,MATCH(35,Data!E1:E10,1)+1)",
  "=XLOOKUP(30,Data!E1:E10,Data!F1:F10,,1)": "=INDEX(Data!F1:F10,MATCH(30,Data!E1:E10,0))",
  '=XLOOKUP("b*",Data!B1:B10,Data!A1:A10,,2)': '=INDEX(Data!A1:A10,MATCH("b*",Data!B1:B10,0))',
  '=XLOOKUP("b*",Data!B1:B10,Data!A1:A10)': '=INDEX(Data!A1:A10,MATCH("b~*",Data!B1:B10,0))',
  '=XLOOKUP("Amount",Data!K1:M1,Data!K5:M5)': '=HLOOKUP("Amount",Data!K1:M5,5,FALSE)',
  '=XLOOKUP("APPLE",Data!B1:B10,Data!A1:A10)': '=INDEX(Data!A1:A10,MATCH("APPLE",Data!B1:B10,0))',
  '=SUM(XLOOKUP("East",Data!K2:K9,Data!K2:M9))': '=SUM(INDEX(Data!K2:M9,MATCH("East",Data!K2:K9,0),0))',
};

/**
 * Formulas where the engine (computing as Excel does) and Calc disagree, and why. The corpus keeps
 * one formula of each kind of disagreement; test/spreadsheets/functions.test.ts checks the other
 * cases of each kind against Excel's documented results.
 */
export const KNOWN_DIFFERENCES: Record<string, string> = {
  '=TRUE()&"x"':
    'Calc has no boolean type (TRUE is the number 1 with a boolean format), so TRUE joins as "1"; Excel gives "TRUEx". The same holds for LEN(TRUE()), TRUE()>1 and booleans inside ranges (Excel\'s SUM, COUNT and AVERAGE skip them, Calc counts them).',
  "=SQRT(-4)":
    "Calc's error for an invalid argument (Err:502) is what it saves as #VALUE!; Excel gives #NUM!. Likewise for VLOOKUP/HLOOKUP/INDEX past the table (Excel: #REF!) and DATEDIF with start after end or an unknown unit (Excel: #NUM!).",
  '=SUM("3",2)':
    'Calc\'s default conversion of text to numbers refuses text written as a function argument (#VALUE!); Excel converts "3" and gives 5 (as it does for AVERAGE, MIN and MAX).',
  '=FIND("","abc")': "Excel's FIND finds empty text at the start position (1); Calc gives #VALUE!.",
};
