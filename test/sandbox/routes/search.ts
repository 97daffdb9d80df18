// Search: POST /search/v1/query and POST /search/v1/chat, answering from the seeded corpus.
import { z } from "zod";
import { jsonBody } from "../body.ts";
import { notFound } from "../errors.ts";
import { json, route, type Route, type RouteContext } from "../http.ts";
import { SEARCH_SOURCES, type Citation, type SearchDocument, type SearchSource } from "../model.ts";
import type { SandboxStore, SearchSession } from "../store.ts";
import { nonEmpty, parseWith } from "../validate.ts";

const querySchema = z.object({ query: nonEmpty, sources: z.array(z.enum(SEARCH_SOURCES)).optional() });
const chatSchema = z.object({ sessionId: nonEmpty.optional(), message: nonEmpty });

/** Top 5 documents by word hits (title hits count three times); ties by title. */
export function searchCorpus(docs: readonly SearchDocument[], text: string, sources?: readonly SearchSource[]): Citation[] {
  const words = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
  return docs
    .filter((d) => !sources || sources.length === 0 || sources.includes(d.source))
    .map((d) => {
      const title = d.title.toLowerCase();
      const body = d.text.toLowerCase();
      const score = words.reduce((sum, w) => sum + (title.includes(w) ? 3 : 0) + (body.includes(w) ? 1 : 0), 0);
      return { d, score };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || (a.d.title < b.d.title ? -1 : a.d.title > b.d.title ? 1 : 0))
    .slice(0, 5)
    .map(({ d }) => ({ title: d.title, url: d.url, source: d.source, snippet: d.text.replace(/\s+/g, " ").trim().slice(0, 160) }));
}

function answerFor(text: string, citations: Citation[]): string {
  if (citations.length === 0) return `I could not find anything about "${text}".`;
  const titles = citations.map((c) => c.title).join("; ");
  return `Found ${citations.length} source${citations.length === 1 ? "" : "s"} about "${text}": ${titles}. ${citations[0]?.snippet ?? ""}`;
}

function newSession(store: SandboxStore): SearchSession {
  const session: SearchSession = { id: store.newId("ses"), turns: [] };
  store.sessions.set(session.id, session);
  return session;
}

function query(ctx: RouteContext) {
  const input = parseWith(querySchema, jsonBody(ctx.body));
  const citations = searchCorpus(ctx.store.searchDocuments, input.query, input.sources);
  const answer = answerFor(input.query, citations);
  const session = newSession(ctx.store);
  session.turns.push({ message: input.query, answer });
  return json(200, { answer, citations, sessionId: session.id });
}

function chat(ctx: RouteContext) {
  const input = parseWith(chatSchema, jsonBody(ctx.body));
  let session: SearchSession;
  if (input.sessionId !== undefined) {
    const found = ctx.store.sessions.get(input.sessionId);
    if (!found) throw notFound(`session ${input.sessionId}`);
    session = found;
  } else {
    session = newSession(ctx.store);
  }
  const citations = searchCorpus(ctx.store.searchDocuments, input.message);
  const answer = `(turn ${session.turns.length + 1}) ${answerFor(input.message, citations)}`;
  session.turns.push({ message: input.message, answer });
  return json(200, { sessionId: session.id, answer, citations });
}

export const searchRoutes: Route[] = [route("POST", "/search/v1/query", query), route("POST", "/search/v1/chat", chat)];
