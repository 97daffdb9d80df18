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
// Federation's `_entities(representations:)` costs, for each representation, its selection on
// that representation's type: a router's batch of 100 documents' text costs 100 texts.
// Unpaged lists (a thread's messages, a transcript's segments) come whole from one upstream answer
// and multiply by 1, as armor's did. The limit, MAX_COST, is 20,000 points: ~200 text reads, or
// 5,000,000 characters asked for (the default per-request read budget, src/core/read-budget.ts),
// whichever comes first; the read budget still counts what is actually read, on every surface.
import {
  getNamedType,
  GraphQLError,
  isAbstractType,
  isCompositeType,
  isObjectType,
  Kind,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  valueFromASTUntyped,
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

function fieldCost(walk: Walk, parent: GraphQLCompositeType, node: FieldNode): number {
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
  const representations = argument("representations");
  if (representations) {
    const value = args.get("representations")?.value;
    return own + representationsCost(walk, node, value && valueFromASTUntyped(value, walk.variables as Record<string, unknown>));
  }
  const type = getNamedType(definition.type);
  const inner = node.selectionSet && isCompositeType(type) ? selectionCost(walk, type, node.selectionSet) : 0;
  const paging = argument("first") ?? argument("limit");
  const items = paging ? Math.max(1, intOf(walk, args.get(paging.name)?.value, paging, costModel.DEFAULT_PAGE)) : 1;
  return own + items * inner;
}

/**
 * `_entities`: each representation's selection on its own type (`... on Document { text }` costs
 * only for the documents), whether they come as a variable (as routers send them) or a literal
 * list; absent or malformed, they count as one representation of each fragment's type.
 */
function representationsCost(walk: Walk, node: FieldNode, value: unknown): number {
  if (!node.selectionSet) return 0;
  const selection = node.selectionSet;
  const list = Array.isArray(value) ? value : [undefined];
  const perType = new Map<string, number>();
  let cost = 0;
  for (const representation of list) {
    const typename = (representation as { __typename?: unknown } | undefined)?.__typename;
    const type = typeof typename === "string" ? walk.schema.getType(typename) : undefined;
    if (!type || !isObjectType(type)) {
      // The union's every fragment: an upper bound for a representation of no known type.
      const union = walk.schema.getType("_Entity");
      cost += union && isCompositeType(union) ? selectionCost(walk, union, selection) : 0;
      continue;
    }
    let typeCost = perType.get(type.name);
    if (typeCost === undefined) perType.set(type.name, (typeCost = selectionCost(walk, type, selection)));
    cost += typeCost;
  }
  return cost;
}

/** Whether a fragment on `condition` applies to a value of `parent` (always, unless parent is an object type it excludes). */
function applies(walk: Walk, parent: GraphQLCompositeType, condition: string | undefined): boolean {
  if (!condition || !isObjectType(parent) || condition === parent.name) return true;
  const type = walk.schema.getType(condition);
  return !!type && isAbstractType(type) && walk.schema.isSubType(type, parent);
}

function selectionCost(walk: Walk, parent: GraphQLCompositeType, selectionSet: SelectionSetNode): number {
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) cost += fieldCost(walk, parent, selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (!applies(walk, parent, selection.typeCondition?.name.value)) continue;
      const type = isObjectType(parent)
        ? parent
        : selection.typeCondition
          ? walk.schema.getType(selection.typeCondition.name.value)
          : parent;
      if (type && isCompositeType(type)) cost += selectionCost(walk, type, selection.selectionSet);
    } else {
      const fragment = walk.fragments.get(selection.name.value);
      if (fragment && !applies(walk, parent, fragment.typeCondition.name.value)) continue;
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
export const useCostLimit = (maxCost: number = costModel.MAX_COST): Plugin => {
  const costs = new FixedCosts();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const computed = costs.of(args.schema, args.document, args.operationName, args.variableValues);
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
  };
};

/**
 * Operation costs, kept for documents that declare no variables: such an operation costs the same
 * on every request (validation lets no variable in), so it is walked once while yoga's document
 * cache keeps its DocumentNode. An operation with variables is priced on every request. One
 * instance serves one schema (the plugin's yoga's).
 */
export class FixedCosts {
  private readonly byDocument = new WeakMap<DocumentNode, Map<string, number | undefined>>();

  of(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: unknown): number | undefined {
    const key = operationName ?? "";
    const known = this.byDocument.get(document);
    if (known?.has(key)) return known.get(key);
    const cost = operationCost(schema, document, operationName, variables);
    if (!declaresVariables(document)) {
      if (known) known.set(key, cost);
      else this.byDocument.set(document, new Map([[key, cost]]));
    }
    return cost;
  }
}

const declaresVariables = (document: DocumentNode): boolean =>
  document.definitions.some(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION && (definition.variableDefinitions?.length ?? 0) > 0,
  );
