// What a GraphQL operation may make the gateway do, counted before anything runs (docs/security.md
// "GraphQL cost"). graphql-armor's cost limit priced the attack of issue 23 — six aliases of
// `versions(first: 100) { … text(maxChars: 1) }`, 600 store reads — under its limit: it multiplies
// by a literal `first` only (never a variable, never `limit`) and cannot see what a text field
// reads. Here, with the request's variables:
//   - every field costs 1 each time it resolves;
//   - a paged field (`first`, or `limit`) multiplies its selection by that number: the argument,
//     its variable, or DEFAULT_PAGE when absent;
//   - a text field (one that takes `maxChars`) adds a store read, TEXT_READ_POINTS, and one point
//     per CHARS_PER_POINT characters asked for (the argument or its default, 20,000), each time it
//     resolves: 100 versions' text cost 100 reads whatever maxChars, 100 × 20,000 characters cost
//     8,000 points more.
//   - a spreadsheet range (a field that takes `maxCells`) adds a read, TEXT_READ_POINTS, and one
//     point per CELLS_PER_POINT cells asked for (the argument, or the service's default 10,000):
//     three full 100,000-cell ranges fit in one request, not four.
// Unpaged lists (a thread's messages, a transcript's segments) come whole from one upstream answer
// and multiply by 1, as armor's did. The limit, MAX_COST, is 20,000 points: ~200 text reads, or
// 5,000,000 characters asked for (the default per-request read budget, src/core/read-budget.ts),
// whichever comes first; the read budget still counts what is actually read, on every surface.
import {
  getNamedType,
  GraphQLError,
  isCompositeType,
  Kind,
  type ArgumentNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";

export const costModel = {
  MAX_COST: 20_000,
  /** Items a paged field is taken to return when the query does not say (`first` absent). */
  DEFAULT_PAGE: 50,
  /** One store read of a text field. */
  TEXT_READ_POINTS: 100,
  /** Characters of text asked for per point: MAX_COST points are 5,000,000 characters. */
  CHARS_PER_POINT: 250,
  /** Cells of a spreadsheet range asked for per point: a full range (100,000 cells) is 5,000 points. */
  CELLS_PER_POINT: 20,
} as const;

/** The most a text field may be asked for (schema: maxChars 1..1,000,000): what a maxChars of no known value is priced at. */
const MAX_CHARS = 1_000_000;
/** A range's cells when maxCells is absent (the service's default), and the most it may ask for. */
const DEFAULT_CELLS = 10_000;
const MAX_CELLS = 100_000;

type Variables = Readonly<Record<string, unknown>>;

interface Walk {
  schema: GraphQLSchema;
  variables: Variables;
  /** Defaults of the operation's variables, by name. */
  variableDefaults: Map<string, ValueNode>;
  fragments: Map<string, FragmentDefinitionNode>;
  /** A fragment's cost under its own type condition: spread twice, counted once (no exponential walk). */
  fragmentCosts: Map<string, number>;
}

/** What an argument holds: its literal, its variable's value (or the variable's default), or the argument's default. */
function rawValue(walk: Walk, value: ValueNode | undefined, argument: GraphQLArgument): unknown {
  if (value === undefined) return argument.defaultValue;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind !== Kind.VARIABLE) return undefined;
  const name = value.name.value;
  if (Object.hasOwn(walk.variables, name)) return walk.variables[name] ?? argument.defaultValue;
  const fallback = walk.variableDefaults.get(name);
  if (fallback) return fallback.kind === Kind.INT ? Number(fallback.value) : undefined;
  return argument.defaultValue;
}

/** The whole number an argument holds, or `otherwise` (a value coercion will refuse is priced as `otherwise`). */
function intOf(walk: Walk, value: ValueNode | undefined, argument: GraphQLArgument, otherwise: number): number {
  const raw = rawValue(walk, value, argument);
  return typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0 ? raw : otherwise;
}

function fieldCost(
  walk: Walk,
  parent: GraphQLCompositeType,
  node: Extract<SelectionSetNode["selections"][number], { kind: Kind.FIELD }>,
): number {
  const name = node.name.value;
  // Introspection and __typename are free here, as armor had it (introspection is off unless INTROSPECTION=true).
  if (name.startsWith("__") || !("getFields" in parent)) return 0;
  const definition = parent.getFields()[name];
  if (!definition) return 0;
  const args = new Map<string, ArgumentNode>((node.arguments ?? []).map((arg) => [arg.name.value, arg]));
  const argument = (argName: string) => definition.args.find((a) => a.name === argName);
  let own = 1;
  const maxChars = argument("maxChars");
  if (maxChars) {
    const chars = intOf(walk, args.get("maxChars")?.value, maxChars, MAX_CHARS);
    own += costModel.TEXT_READ_POINTS + Math.ceil(chars / costModel.CHARS_PER_POINT);
  }
  const maxCells = argument("maxCells");
  if (maxCells) {
    // Absent means the service's default; a value coercion or the service will refuse is priced at the most.
    const given = args.get("maxCells")?.value;
    const cells = given === undefined ? DEFAULT_CELLS : Math.min(intOf(walk, given, maxCells, MAX_CELLS), MAX_CELLS);
    own += costModel.TEXT_READ_POINTS + Math.ceil(cells / costModel.CELLS_PER_POINT);
  }
  const type = getNamedType(definition.type);
  const inner = node.selectionSet && isCompositeType(type) ? selectionCost(walk, type, node.selectionSet) : 0;
  const paging = argument("first") ?? argument("limit");
  const items = paging ? Math.max(1, intOf(walk, args.get(paging.name)?.value, paging, costModel.DEFAULT_PAGE)) : 1;
  return own + items * inner;
}

function selectionCost(walk: Walk, parent: GraphQLCompositeType, selectionSet: SelectionSetNode): number {
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) cost += fieldCost(walk, parent, selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : parent;
      if (type && isCompositeType(type)) cost += selectionCost(walk, type, selection.selectionSet);
    } else {
      cost += fragmentCost(walk, selection.name.value);
    }
  }
  return cost;
}

function fragmentCost(walk: Walk, name: string): number {
  const known = walk.fragmentCosts.get(name);
  if (known !== undefined) return known;
  // Validation (NoFragmentCycles) has run before execution; the 0 also stops a cycle here.
  walk.fragmentCosts.set(name, 0);
  const fragment = walk.fragments.get(name);
  const type = fragment && walk.schema.getType(fragment.typeCondition.name.value);
  const cost = fragment && type && isCompositeType(type) ? selectionCost(walk, type, fragment.selectionSet) : 0;
  walk.fragmentCosts.set(name, cost);
  return cost;
}

/** The operation's cost with these variables; undefined when the document names no such operation (execution says so). */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: unknown,
): number | undefined {
  let operation: OperationDefinitionNode | undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION && (!operationName || definition.name?.value === operationName)) {
      operation ??= definition;
    }
  }
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return undefined;
  const walk: Walk = {
    schema,
    variables: variables !== null && typeof variables === "object" ? (variables as Variables) : {},
    variableDefaults: new Map(
      (operation.variableDefinitions ?? []).flatMap((v) => (v.defaultValue ? [[v.variable.name.value, v.defaultValue] as const] : [])),
    ),
    fragments,
    fragmentCosts: new Map(),
  };
  return selectionCost(walk, root, operation.selectionSet);
}

/**
 * Refuses an operation over MAX_COST before it runs, compiled or not (listed before the jit
 * plugin): BAD_USER_INPUT with the cost and the limit, answered like any request error.
 */
export const useCostLimit = (maxCost: number = costModel.MAX_COST): Plugin => ({
  onExecute({ args, setResultAndStopExecution }) {
    const computed = operationCost(args.schema, args.document, args.operationName, args.variableValues);
    if (computed === undefined || computed <= maxCost) return;
    // Nested huge `first`s multiply past what JSON can say exactly: the answer names a bound.
    const cost = Math.min(computed, Number.MAX_SAFE_INTEGER);
    setResultAndStopExecution({
      errors: [
        new GraphQLError(
          `Query cost ${cost} is over the limit of ${maxCost}: ask for fewer items (first), fewer texts, or a smaller maxChars (docs/security.md "GraphQL cost")`,
          { extensions: { code: "BAD_USER_INPUT", details: { cost, limit: maxCost } } },
        ),
      ],
    });
  },
});
