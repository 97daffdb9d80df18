// Enterprise (tenant) product (docs/api.md "Upstreams"): data query, invoices, workflow runs — each sent to
// the caller's tenant base URL, which only configuration decides (see tenants.ts).
import { z } from "zod";
import { listOf, optional, type Page, type PageQuery } from "./common.ts";
import type { TenantResolver } from "./tenants.ts";
import { path, segment } from "./upstream/base.ts";
import type { UpstreamCall, UpstreamClient } from "./upstream/client.ts";

export const dataQueryResultSchema = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.unknown())),
  answer: optional(z.string()),
});

export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  customer: z.object({ id: z.string(), name: z.string() }),
  currency: z.string(),
  total: z.number(),
  status: z.string(),
  issuedAt: z.string(),
  dueAt: optional(z.string()),
});

export const workflowRunSchema = z.object({
  runId: z.string(),
  workflowId: z.string(),
  status: z.string(),
  startedAt: z.string(),
});

const invoiceListSchema = listOf(invoiceSchema);

export type DataQueryResult = z.output<typeof dataQueryResultSchema>;
export type Invoice = z.output<typeof invoiceSchema>;
export type WorkflowRun = z.output<typeof workflowRunSchema>;

/** An upstream call made for a tenant: the tenant is the principal's, nothing else. */
export interface TenantCall extends UpstreamCall {
  tenant: string | null | undefined;
}

export interface InvoicesQuery extends PageQuery {
  status?: string | undefined;
}

export interface EnterpriseAdapter {
  dataQuery(call: TenantCall, question: string): Promise<DataQueryResult>;
  invoices(call: TenantCall, query: InvoicesQuery): Promise<Page<Invoice>>;
  runWorkflow(call: TenantCall, workflowId: string, input: unknown): Promise<WorkflowRun>;
}

export function createEnterpriseAdapter(
  upstream: UpstreamClient,
  tenants: TenantResolver,
  options: { dataquerySegment: string },
): EnterpriseAdapter {
  const product = "enterprise" as const;
  const dataQueryPath = `/api/v1/${segment(options.dataquerySegment, "DATAQUERY_SEGMENT")}/query`;
  return {
    dataQuery: async (call, question) =>
      upstream.json(call, {
        product,
        base: tenants.resolve(call.tenant),
        method: "POST",
        path: dataQueryPath,
        body: { question },
        schema: dataQueryResultSchema,
      }),
    invoices: async (call, { status, cursor, limit }) =>
      upstream.json(call, {
        product,
        base: tenants.resolve(call.tenant),
        method: "GET",
        path: "/api/v1/invoices",
        query: { status, cursor, limit },
        schema: invoiceListSchema,
      }),
    runWorkflow: async (call, workflowId, input) =>
      upstream.json(call, {
        product,
        base: tenants.resolve(call.tenant),
        method: "POST",
        path: path`/api/v1/workflows/${workflowId}/run`,
        body: input === undefined ? {} : { input },
        schema: workflowRunSchema,
      }),
  };
}
