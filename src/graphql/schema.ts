// The executable schema: SDL from schema/ (the source of truth) plus the resolvers, built once as
// an Apollo Federation v2 subgraph (schema/federation.graphql, docs/federation.md): besides the
// gateway's own fields it serves `_service { sdl }` and `_entities(representations:)`.
// @apollo/subgraph (MIT; since 2.15 it no longer needs the Elastic-licensed federation-internals)
// adds only those fields and the spec's definitions to plain graphql-js, so graphql-jit and the
// limits see an ordinary schema.
import { buildSubgraphSchema } from "@apollo/subgraph";
import { addResolversToSchema } from "@graphql-tools/schema";
import { Kind, parse, type DefinitionNode, type DocumentNode, type GraphQLSchema, type ObjectTypeDefinitionNode } from "graphql";
import { entityResolvers } from "../../resolvers/entities.ts";
import { resolvers } from "../../resolvers/index.ts";
import { loadSubgraphTypeDefs, loadTypeDefs } from "../../resolvers/sdl.ts";

export { loadTypeDefs };

/**
 * federation.graphql's `extend type X @key(…)` (directives, no fields) put on X's definition. A
 * type-level `@shareable` covers only the fields declared where it stands, so on an extension it
 * would cover none; and routers read `type Document @key(fields: "id") { … }` most plainly.
 */
export function directivesOnDefinitions(document: DocumentNode): DocumentNode {
  const definitions = new Map<string, ObjectTypeDefinitionNode>();
  for (const node of document.definitions) if (node.kind === Kind.OBJECT_TYPE_DEFINITION) definitions.set(node.name.value, node);
  const merged: DefinitionNode[] = [];
  const moved = new Map<string, ObjectTypeDefinitionNode>();
  for (const node of document.definitions) {
    const target = node.kind === Kind.OBJECT_TYPE_EXTENSION && !node.fields?.length ? definitions.get(node.name.value) : undefined;
    if (!target || node.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    const current = moved.get(target.name.value) ?? target;
    moved.set(target.name.value, { ...current, directives: [...(current.directives ?? []), ...(node.directives ?? [])] });
  }
  for (const node of document.definitions) {
    if (node.kind === Kind.OBJECT_TYPE_EXTENSION && !node.fields?.length && definitions.has(node.name.value)) continue;
    merged.push(node.kind === Kind.OBJECT_TYPE_DEFINITION ? (moved.get(node.name.value) ?? node) : node);
  }
  return { kind: Kind.DOCUMENT, definitions: merged };
}

export function buildSchema(): GraphQLSchema {
  const typeDefs = directivesOnDefinitions(parse(loadSubgraphTypeDefs().join("\n")));
  const subgraph = buildSubgraphSchema([{ typeDefs, resolvers: entityResolvers as never }]);
  // The gateway's resolvers as makeExecutableSchema adds them: enum arguments' defaults take the
  // enums' internal values too (the subgraph builder would leave `format = TEXT` as "TEXT").
  return addResolversToSchema({ schema: subgraph, resolvers: resolvers as never });
}
