// Mail: GET/POST /email/v1/messages, GET /email/v1/threads/:id, POST /email/v1/drafts.
import { z } from "zod";
import { jsonBody } from "../body.ts";
import { HttpError, notFound } from "../errors.ts";
import { json, route, type Route, type RouteContext } from "../http.ts";
import { FOLDERS, type Draft, type Folder, type Message, type MessageWithBody } from "../model.ts";
import { paginate, parseLimit } from "../paging.ts";
import { byOldest, snippetOf } from "../seed.ts";
import type { SandboxStore } from "../store.ts";
import { email, nonEmpty, parseWith } from "../validate.ts";

const sendSchema = z.object({
  to: z.array(email).min(1),
  cc: z.array(email).optional(),
  bcc: z.array(email).optional(),
  subject: z.string(),
  body: z.string(),
  html: z.union([z.boolean(), z.string()]).optional(),
  threadId: nonEmpty.optional(),
});

const draftSchema = z.object({
  to: z.array(email).optional(),
  subject: z.string().optional(),
  body: z.string().optional(),
  threadId: nonEmpty.optional(),
  generate: z.object({ instructions: nonEmpty }).optional(),
});

export function withoutBody(m: MessageWithBody): Message {
  const { body: _body, ...message } = m;
  return message;
}

function listMessages(ctx: RouteContext) {
  const folder = ctx.query.get("folder") ?? "";
  if (folder && !FOLDERS.includes(folder as Folder)) throw new HttpError(400, `folder must be one of ${FOLDERS.join(", ")}`);
  const q = (ctx.query.get("q") ?? "").trim().toLowerCase();
  const matches = ctx.store.messages.filter((m) => {
    if (folder && m.folder !== folder) return false;
    if (!q) return true;
    const haystack = [m.subject, m.snippet, m.body, m.from.name ?? "", m.from.email, ...m.to.map((a) => a.email)].join("\n").toLowerCase();
    return haystack.includes(q);
  });
  const page = paginate(matches, {
    sortKey: (m) => m.receivedAt,
    direction: "desc",
    cursor: ctx.query.get("cursor"),
    limit: parseLimit(ctx.query.get("limit")),
    filter: JSON.stringify(["messages", folder, q]),
  });
  return json(200, { data: page.data.map(withoutBody), nextCursor: page.nextCursor });
}

function sendMessage(ctx: RouteContext) {
  const input = parseWith(sendSchema, jsonBody(ctx.body));
  const store = ctx.store;
  let threadId = input.threadId;
  if (threadId !== undefined) {
    if (!store.threads.has(threadId)) throw notFound(`thread ${threadId}`);
  } else {
    threadId = store.newId("thr");
    store.threads.set(threadId, { id: threadId, subject: input.subject });
  }
  const message: MessageWithBody = {
    id: store.newId("msg"),
    threadId,
    folder: "sent",
    from: { ...store.seed.owner },
    to: input.to.map((e) => ({ email: e })),
    cc: (input.cc ?? []).map((e) => ({ email: e })),
    subject: input.subject,
    snippet: snippetOf(input.body),
    receivedAt: new Date().toISOString(),
    unread: false,
    hasAttachments: false,
    body: input.body,
  };
  store.messages.push(message);
  return json(201, withoutBody(message));
}

function getThread(ctx: RouteContext) {
  const id = ctx.params.id as string;
  const thread = ctx.store.threads.get(id);
  if (!thread) throw notFound(`thread ${id}`);
  const messages = ctx.store.messages.filter((m) => m.threadId === id).sort(byOldest((m) => m.receivedAt));
  return json(200, { id: thread.id, subject: thread.subject, messages });
}

/** The deterministic "generated" draft body: it always quotes the instructions it was given. */
export function generateDraftBody(store: SandboxStore, instructions: string, threadId?: string): string {
  const thread = threadId ? store.threads.get(threadId) : undefined;
  const last = threadId
    ? store.messages
        .filter((m) => m.threadId === threadId && m.from.email !== store.seed.owner.email)
        .sort(byOldest((m) => m.receivedAt))
        .pop()
    : undefined;
  const greet = last?.from.name?.split(" ")[0] ?? "there";
  const about = thread ? ` about "${thread.subject}"` : "";
  const text = instructions.trim().replace(/[.!?]*$/, ".");
  return `Hi ${greet},\n\nThanks for your message${about}. ${text[0]?.toUpperCase() ?? ""}${text.slice(1)}\n\nBest regards,\n${store.seed.owner.name ?? store.seed.owner.email}`;
}

function createDraft(ctx: RouteContext) {
  const input = parseWith(draftSchema, jsonBody(ctx.body));
  const store = ctx.store;
  const thread = input.threadId !== undefined ? store.threads.get(input.threadId) : undefined;
  if (input.threadId !== undefined && !thread) throw notFound(`thread ${input.threadId}`);
  const draft: Draft = {
    id: store.newId("drf"),
    to: input.to ?? [],
    subject: input.subject ?? (thread ? `Re: ${thread.subject}` : ""),
    body: input.generate ? generateDraftBody(store, input.generate.instructions, input.threadId) : (input.body ?? ""),
    generated: input.generate !== undefined,
  };
  store.drafts.push(draft);
  return json(201, draft);
}

export const emailRoutes: Route[] = [
  route("GET", "/email/v1/messages", listMessages),
  route("POST", "/email/v1/messages", sendMessage),
  route("GET", "/email/v1/threads/:id", getThread),
  route("POST", "/email/v1/drafts", createDraft),
];
