// GraphQL enums whose values the services speak in lower case ("markdown" for MARKDOWN): graphql-js
// maps each name to its internal value both ways (arguments in, fields out), and codegen types the
// resolvers with the internal values (codegen.ts). An enum not listed here is the service's as named.
const lowerCase = <const V extends string>(...names: V[]) =>
  Object.fromEntries(names.map((name) => [name, name.toLowerCase()])) as { [N in V]: Lowercase<N> };

export const enumValues = {
  DocumentFormat: lowerCase("TEXT", "MARKDOWN"),
  DocumentVersionSource: lowerCase("MARKDOWN", "DOCX", "RENAME", "RESTORE"),
  CellRender: lowerCase("VALUE", "FORMULA", "BOTH", "RAW", "FORMATTED"),
  CellInput: lowerCase("PARSE", "RAW"),
  SpreadsheetVersionSource: lowerCase("CREATE", "IMPORT", "WRITE", "APPEND", "EDIT", "RENAME", "RESTORE"),
};
