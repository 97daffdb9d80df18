// Tenant endpoints, under each tenant's own base: POST /api/v1/{segment}/query, GET /api/v1/invoices,
// POST /api/v1/workflows/:id/run (202).
import { z } from "zod";
import { jsonBody } from "../body.ts";
import { HttpError, notFound } from "../errors.ts";
import { json, route, type Route, type RouteContext } from "../http.ts";
import { INVOICE_STATUSES, type Invoice, type InvoiceStatus } from "../model.ts";
import { paginate, parseLimit } from "../paging.ts";
import type { TenantState } from "../store.ts";
import { nonEmpty, parseWith } from "../validate.ts";

const querySchema = z.object({ question: nonEmpty });
const runSchema = z.object({ input: z.unknown().optional() });

function tenantState(ctx: RouteContext): TenantState {
  const state = ctx.tenant !== undefined ? ctx.store.tenants.get(ctx.tenant) : undefined;
  if (!state) throw notFound(`tenant ${ctx.tenant ?? ""}`);
  return state;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * A canned "data query": grouped invoice figures of this tenant. Questions that mention customers are
 * grouped by customer, everything else by status.
 */
export function answerDataQuery(tenant: string, invoices: readonly Invoice[], question: string) {
  const byCustomer = /customer/i.test(question);
  const groups = new Map<string, { count: number; total: number }>();
  for (const inv of invoices) {
    const key = byCustomer ? inv.customer.name : inv.status;
    const g = groups.get(key) ?? { count: 0, total: 0 };
    g.count += 1;
    g.total = round2(g.total + inv.total);
    groups.set(key, g);
  }
  const rows = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, g]) => [key, g.count, g.total]);
  const total = round2(invoices.reduce((s, i) => s + i.total, 0));
  return {
    columns: [
      { name: byCustomer ? "customer" : "status", type: "string" },
      { name: "count", type: "integer" },
      { name: "total", type: "number" },
    ],
    rows,
    answer:
      `${tenant} has ${invoices.length} invoices totalling ${total.toFixed(2)} ${invoices[0]?.currency ?? ""} across ${rows.length} ${byCustomer ? "customers" : "statuses"}.`.replace(
        " .",
        ".",
      ),
  };
}

function dataQuery(ctx: RouteContext) {
  const state = tenantState(ctx);
  const { question } = parseWith(querySchema, jsonBody(ctx.body));
  return json(200, answerDataQuery(ctx.tenant as string, state.invoices, question));
}

function invoices(ctx: RouteContext) {
  const state = tenantState(ctx);
  const status = ctx.query.get("status") ?? "";
  if (status && !INVOICE_STATUSES.includes(status as InvoiceStatus))
    throw new HttpError(400, `status must be one of ${INVOICE_STATUSES.join(", ")}`);
  const page = paginate(
    state.invoices.filter((i) => !status || i.status === status),
    {
      sortKey: (i) => i.issuedAt,
      direction: "desc",
      cursor: ctx.query.get("cursor"),
      limit: parseLimit(ctx.query.get("limit")),
      filter: JSON.stringify(["invoices", status]),
    },
  );
  return json(200, page);
}

function runWorkflow(ctx: RouteContext) {
  const state = tenantState(ctx);
  const body = jsonBody(ctx.body, { optional: true });
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "request body must be a JSON object");
  parseWith(runSchema, body);
  const id = ctx.params.id as string;
  const workflow = state.workflows.find((w) => w.id === id);
  if (!workflow) throw notFound(`workflow ${id}`);
  const run = { runId: ctx.store.newId("run"), workflowId: workflow.id, status: "queued" as const, startedAt: new Date().toISOString() };
  state.runs.push(run);
  return json(202, run);
}

export function tenantRoutes(dataquerySegment: string): Route[] {
  return [
    route("POST", `/api/v1/${dataquerySegment}/query`, dataQuery),
    route("GET", "/api/v1/invoices", invoices),
    route("POST", "/api/v1/workflows/:id/run", runWorkflow),
  ];
}
