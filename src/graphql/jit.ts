// graphql-jit for the operations a gateway serves again and again. A document is compiled on its
// second execution (yoga's parse cache hands back the same DocumentNode for the same query text),
// so a one-off query, or a stream of distinct ones, costs ordinary execution and never a compile;
// the hot ones run as generated code, cheaper to execute than graphql-js's generic walk.
import { useGraphQlJit } from "@envelop/graphql-jit";
import {
  getVariableValues,
  GraphQLError,
  Kind,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type Source,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Logger } from "../core/logger.ts";

/** Executions of a document before it is compiled. */
export const JIT_AFTER_EXECUTIONS = 1;

export function useJit(logger: Logger): Plugin[] {
  const executions = new WeakMap<DocumentNode, number>();
  const compiled = new WeakSet<DocumentNode>();
  const jit = useGraphQlJit(
    {},
    {
      enableIf: ({ document, schema, variableValues }) => {
        const operation = soleOperation(document, schema);
        if (!operation) return false;
        const seen = executions.get(document) ?? 0;
        if (seen < JIT_AFTER_EXECUTIONS) {
          executions.set(document, seen + 1);
          return false;
        }
        // graphql-jit coerces variables its own way: it answered a null for an `Int!` without the
        // 400 graphql-js gives, and words its messages otherwise. Variables that graphql-js does not
        // accept are answered by graphql-js, so both paths refuse them alike (issue 23).
        if (!variablesCoerce(operation, schema, variableValues)) return false;
        compiled.add(document);
        return true;
      },
      // A document graphql-jit cannot compile still gets an answer: the compilation's errors.
      onError: (result) => logger.warn({ errors: result.errors?.map((e) => e.message) }, "graphql-jit could not compile an operation"),
    },
  ) as Plugin;
  /**
   * graphql-jit's field errors carry `locations` but neither AST nodes nor source positions, and
   * every later step that re-creates an error (masking, yoga's serializer) rebuilds locations
   * from those. A compiled operation's errors are re-made at the same place in the document's
   * source, and put before `data` as graphql-js serializes them, so its result reads exactly as
   * the uncompiled one's. This runs after the jit plugin (which decided) and before yoga's
   * masking (user plugins come first).
   */
  const compiledErrorsLocated: Plugin = {
    onExecute({ args }) {
      const source = args.document.loc?.source;
      if (!source || !compiled.has(args.document)) return;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || !result.errors?.length) return;
          const { errors, ...rest } = result;
          setResult({ errors: errors.map((error) => (unplaced(error) ? placed(error, source) : error)), ...rest });
        },
      };
    },
  };
  return [jit, compiledErrorsLocated];
}

/**
 * The document's one operation, when it may be compiled. graphql-jit caches one compilation per
 * DocumentNode, whatever the operationName: a document with two operations would run the first
 * one compiled for every later request, whichever it names. And it throws (an INTERNAL) on an
 * operation whose root type the schema lacks (`subscription`), where graphql-js answers a request
 * error. Such documents stay on graphql-js, and so do those that ask for `_entities`.
 */
function soleOperation(document: DocumentNode, schema: GraphQLSchema): OperationDefinitionNode | undefined {
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (operation) return undefined;
    operation = definition;
  }
  if (!operation || !schema.getRootType(operation.operation) || selectsEntities(operation)) return undefined;
  return operation;
}

/**
 * Federation's `_entities` stays on graphql-js: compiled, a list of the abstract `_Entity` whose
 * item fails after one that succeeded came back one item short (`[{…}]` for `[{…}, null]`), and a
 * router matches the answers to its representations by position.
 */
const selectsEntities = (operation: OperationDefinitionNode): boolean =>
  operation.selectionSet.selections.some((selection) => selection.kind === Kind.FIELD && selection.name.value === "_entities");

/** Whether graphql-js accepts the request's variables for the operation (what the interpreted path checks first). */
function variablesCoerce(operation: OperationDefinitionNode, schema: GraphQLSchema, values: unknown): boolean {
  const definitions = operation.variableDefinitions ?? [];
  if (definitions.length === 0) return true;
  const inputs = values !== null && typeof values === "object" ? (values as Record<string, unknown>) : {};
  return !("errors" in getVariableValues(schema, definitions, inputs, { maxErrors: 1 }));
}

const unplaced = (error: GraphQLError): boolean => !error.positions && !error.nodes && (error.locations?.length ?? 0) > 0;

function placed(error: GraphQLError, source: Source): GraphQLError {
  const lineStarts = [0];
  for (const match of source.body.matchAll(/\r\n|[\n\r]/g)) lineStarts.push(match.index + match[0].length);
  const positions = (error.locations ?? []).map(({ line, column }) => (lineStarts[line - 1] ?? 0) + column - 1);
  return new GraphQLError(error.message, {
    source,
    positions,
    path: error.path ?? null,
    originalError: error.originalError ?? null,
    extensions: error.extensions,
  });
}
