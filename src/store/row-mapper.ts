// How both SQL stores turn a row into a record: the columns named in snake_case, the fields in
// camelCase, nothing else to say per column but a conversion where the value needs one.

/**
 * A row's columns as a record's fields, snake_case to camelCase (both schemas name their columns
 * alike), each through its conversion when it has one (PostgreSQL's bigints come back as strings,
 * sheets are JSON text).
 */
export function rowMapper<R>(columns: string, convert: Record<string, (value: never) => unknown> = {}): (row: object) => R {
  const fields = columns.split(", ").map((column) => [column, column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] as const);
  return (row) => {
    const record: Record<string, unknown> = {};
    for (const [column, field] of fields) {
      const value = (row as Record<string, unknown>)[column];
      record[field] = convert[column] ? convert[column](value as never) : value;
    }
    return record as R;
  };
}
