import type { DocumentList, DocumentSummary, DocumentText } from "../../src/contract/documents.ts";
import type { DocumentsDriver, Outcome } from "./driver.ts";

const documentFields = "id name createdAt updatedAt sizeBytes characters version url downloadUrl";

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export async function graphqlRequest<T>(
  baseUrl: string,
  auth: string | null,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ status: number; body: GraphQLResponse<T> }> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/graphql-response+json",
      ...(auth ? { authorization: auth } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as GraphQLResponse<T> };
}

async function call<T, R>(
  baseUrl: string,
  auth: string | null,
  query: string,
  variables: Record<string, unknown>,
  pick: (data: T) => R | null,
): Promise<Outcome<R>> {
  const { status, body } = await graphqlRequest<T>(baseUrl, auth, query, variables);
  const error = body.errors?.[0];
  if (error) return { ok: false, code: error.extensions?.code ?? "?", message: error.message, httpStatus: status };
  const picked = body.data ? pick(body.data) : null;
  if (picked === null) return { ok: false, code: "NOT_FOUND", message: "null result", httpStatus: status };
  return { ok: true, data: picked };
}

export function graphqlDriver(baseUrl: string): DocumentsDriver {
  return {
    surface: "graphql",
    create(auth, args, idempotencyKey) {
      return call<{ createDocument: DocumentSummary }, DocumentSummary>(
        baseUrl,
        auth,
        `mutation ($input: CreateDocumentInput!) { createDocument(input: $input) { ${documentFields} } }`,
        { input: { ...args, ...(idempotencyKey ? { idempotencyKey } : {}) } },
        (d) => d.createDocument,
      );
    },
    list(auth, args = {}) {
      return call<
        { documents: { edges: { cursor: string; node: DocumentSummary }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } },
        DocumentList
      >(
        baseUrl,
        auth,
        `query ($query: String, $first: Int, $after: String) {
           documents(query: $query, first: $first, after: $after) {
             edges { cursor node { ${documentFields} } } pageInfo { hasNextPage endCursor } } }`,
        { query: args.query, first: args.limit, after: args.cursor },
        (d) => ({
          documents: d.documents.edges.map((e) => e.node),
          nextCursor: d.documents.pageInfo.hasNextPage ? d.documents.pageInfo.endCursor : null,
        }),
      );
    },
    read(auth, id, maxChars) {
      return call<
        { document: (DocumentSummary & { text: Omit<DocumentText, "id" | "name" | "createdAt" | "updatedAt"> }) | null },
        DocumentText
      >(
        baseUrl,
        auth,
        `query ($id: ID!, $maxChars: Int) { document(id: $id) { id name createdAt updatedAt text(maxChars: $maxChars) { version format text truncated totalChars } } }`,
        { id, ...(maxChars === undefined ? {} : { maxChars }) },
        (d) =>
          d.document
            ? {
                id: d.document.id,
                name: d.document.name,
                createdAt: d.document.createdAt,
                updatedAt: d.document.updatedAt,
                ...d.document.text,
                // GraphQL's enum (TEXT, MARKDOWN) is REST's and tRPC's "text"/"markdown".
                format: d.document.text.format.toLowerCase() as DocumentText["format"],
              }
            : null,
      );
    },
  };
}
