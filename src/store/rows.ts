// Row shapes both SQL stores read back, and their mapping to records: the two schemas name
// their columns alike (snake_case for the fields' camelCase), so one mapping serves SQLite and
// PostgreSQL, with a conversion where a value needs one. A kind's columns are its own (kinds.ts).

/** A row as a driver gives it back. */
export type Row = Record<string, unknown>;

export const camel = (column: string): string => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A row's columns as a record's fields, each through its conversion when it has one. */
export function rowMapper<R>(columns: string, convert: Record<string, (value: never) => unknown> = {}): (row: object) => R {
  const fields = columns.split(", ").map((column) => [column, camel(column)] as const);
  return (row) => {
    const record: Record<string, unknown> = {};
    for (const [column, field] of fields) {
      const value = (row as Row)[column];
      record[field] = convert[column] ? convert[column](value as never) : value;
    }
    return record as R;
  };
}

/** `alias.column AS prefix_column` for each column (a join that reads two tables' rows side by side); no prefix: `alias.column`. */
export const prefixedColumns = (columns: string, alias: string, prefix?: string): string =>
  columns
    .split(", ")
    .map((column) => `${alias}.${column}${prefix === undefined ? "" : ` AS ${prefix}${column}`}`)
    .join(", ");

/** The columns of a row that start with `prefix`, without it. */
export function unprefixed(row: Row, prefix: string): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out;
}

/** A Uint8Array view of a driver's Buffer, without a copy. */
export const bytesOf = (buffer: Buffer): Uint8Array => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
export const toBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
