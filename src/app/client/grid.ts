// The spreadsheet grid (docs/app.md "Spreadsheets"): filled in with the spreadsheets stage.
export function startGrid(): void {}
