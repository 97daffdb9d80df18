// DateTime is carried as the ISO string the service layer already produces; JSON passes through.
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from "graphql";

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function parseDateTime(value: unknown): string {
  if (typeof value !== "string" || !isoInstant.test(value) || Number.isNaN(Date.parse(value))) {
    throw new GraphQLError("DateTime must be an ISO 8601 instant such as 2026-11-22T08:00:00Z", {
      extensions: { code: "BAD_USER_INPUT" },
    });
  }
  return value;
}

export const DateTime = new GraphQLScalarType<string, string>({
  name: "DateTime",
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: parseDateTime,
  parseLiteral: (ast) => parseDateTime(ast.kind === Kind.STRING ? ast.value : undefined),
});

function literalToJson(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literalToJson(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalToJson(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
  }
}

export const JSON = new GraphQLScalarType({
  name: "JSON",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literalToJson,
});

/**
 * A File from another implementation than Node's global one: yoga parses multipart bodies with
 * @whatwg-node's ponyfill, whose File is not `instanceof Blob` here.
 */
export function isBlobLike(value: unknown): value is File {
  if (value === null || typeof value !== "object") return false;
  const v = value as Partial<Record<"stream" | "arrayBuffer" | "size" | "type", unknown>>;
  return typeof v.stream === "function" && typeof v.arrayBuffer === "function" && typeof v.size === "number" && typeof v.type === "string";
}

/** The GraphQL multipart request spec's file: yoga hands resolvers a File. */
export const Upload = new GraphQLScalarType<File, never>({
  name: "Upload",
  serialize: () => {
    throw new GraphQLError("Upload is an input-only scalar");
  },
  parseValue: (value) => {
    if (value instanceof Blob || isBlobLike(value)) return value as File;
    throw new GraphQLError("Upload must be a file sent with the GraphQL multipart request spec", {
      extensions: { code: "BAD_USER_INPUT" },
    });
  },
  parseLiteral: () => {
    throw new GraphQLError("Upload must be a file sent with the GraphQL multipart request spec", {
      extensions: { code: "BAD_USER_INPUT" },
    });
  },
});
