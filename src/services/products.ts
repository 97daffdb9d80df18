// Product operations (mail, drive, search, meetings, enterprise): the one implementation that
// GraphQL, tRPC and MCP call. Every operation needs the caller's access token (forwarded
// upstream unchanged); inputs are validated with the shared schemas; related lookups go
// through per-request DataLoaders so each distinct id costs one upstream call per request.
import DataLoader from "dataloader";
import { apiBase, requireApiBase, type Page } from "../../adapters/common.ts";
import { createDriveAdapter, type Download, type DriveFile, type DriveSearchHit, type Share } from "../../adapters/drive.ts";
import {
  createEnterpriseAdapter,
  type DataQueryResult,
  type Invoice,
  type TenantCall,
  type WorkflowRun,
} from "../../adapters/enterprise.ts";
import {
  createMailAdapter,
  type Booking,
  type CalendarEvent,
  type Draft,
  type Message,
  type Thread,
} from "../../adapters/mail.ts";
import { createMeetingsAdapter, type Meeting, type MeetingSummary, type Transcript } from "../../adapters/meetings.ts";
import { createSearchAdapter, type ChatAnswer, type SearchAnswer } from "../../adapters/search.ts";
import { createTenantResolver, type TenantResolver } from "../../adapters/tenants.ts";
import type { UpstreamClient } from "../../adapters/upstream/client.ts";
import type { Config } from "../core/config.ts";
import { memoize, type RequestContext } from "../core/context.ts";
import { GatewayError } from "../core/errors.ts";
import { parseInput } from "../core/validate.ts";
import {
  calendarEventsInputSchema,
  createBookingInputSchema,
  createDraftInputSchema,
  createMeetingInputSchema,
  createShareInputSchema,
  dataQueryInputSchema,
  fileIdInputSchema,
  invoicesInputSchema,
  listMessagesInputSchema,
  meetingIdInputSchema,
  runWorkflowInputSchema,
  searchChatInputSchema,
  searchFilesInputSchema,
  searchQueryInputSchema,
  sendMessageInputSchema,
  threadInputSchema,
  uploadFileInputSchema,
  type CalendarEventsInput,
  type CreateBookingInput,
  type CreateDraftInput,
  type CreateMeetingInput,
  type CreateShareInput,
  type DataQueryInput,
  type FileIdInput,
  type InvoicesInput,
  type ListMessagesInput,
  type MeetingIdInput,
  type RunWorkflowInput,
  type SearchChatInput,
  type SearchFilesInput,
  type SearchQueryInput,
  type SendMessageInput,
  type ThreadInput,
  type UploadFileInput,
} from "../products/schemas.ts";

export type {
  Booking,
  CalendarEvent,
  ChatAnswer,
  DataQueryResult,
  Download,
  Draft,
  DriveFile,
  DriveSearchHit,
  Invoice,
  Meeting,
  MeetingSummary,
  Message,
  Page,
  SearchAnswer,
  Share,
  Thread,
  Transcript,
  WorkflowRun,
};

type Op<I, O> = (ctx: RequestContext, input: I) => Promise<O>;

/** Per-request DataLoaders: one upstream call per distinct id per request. */
export interface ProductLoaders {
  thread: DataLoader<string, Thread>;
  transcript: DataLoader<string, Transcript>;
  summary: DataLoader<string, MeetingSummary>;
  file: DataLoader<string, DriveFile>;
}

export interface ProductServices {
  messages: {
    list: Op<ListMessagesInput, Page<Message>>;
    send: Op<SendMessageInput, Message>;
    /** Through the request's thread loader. */
    thread: Op<ThreadInput, Thread>;
    createDraft: Op<CreateDraftInput, Draft>;
  };
  calendar: { events: Op<CalendarEventsInput, Page<CalendarEvent>> };
  bookings: { create: Op<CreateBookingInput, Booking> };
  files: {
    /** Through the request's file loader. */
    get: Op<FileIdInput, DriveFile>;
    /** Streams `input.file` upstream as multipart/form-data. */
    upload: Op<UploadFileInput, DriveFile>;
    /** The bytes as a stream plus their headers; the caller pipes or destroys `body`. */
    download: Op<FileIdInput, Download>;
    search: Op<SearchFilesInput, DriveSearchHit[]>;
    share: Op<CreateShareInput, Share>;
  };
  search: { query: Op<SearchQueryInput, SearchAnswer>; chat: Op<SearchChatInput, ChatAnswer> };
  meetings: {
    /**
     * A meeting by id. The meetings product has no metadata lookup, so this checks the caller and
     * the id and returns the reference that transcript and summary hang off.
     */
    get: Op<MeetingIdInput, Pick<Meeting, "id">>;
    create: Op<CreateMeetingInput, Meeting>;
    /** Through the request's transcript loader. */
    transcript: Op<MeetingIdInput, Transcript>;
    /** Through the request's summary loader. */
    summary: Op<MeetingIdInput, MeetingSummary>;
  };
  enterprise: { dataQuery: Op<DataQueryInput, DataQueryResult>; invoices: Op<InvoicesInput, Page<Invoice>> };
  workflows: { run: Op<RunWorkflowInput, WorkflowRun> };
  /** The request's loaders (created on first use, kept in `ctx.memo`). Requires an access token. */
  loaders(ctx: RequestContext): ProductLoaders;
}

export interface ProductServicesDeps {
  config: Pick<Config, "API_URL" | "TENANT_URL_TEMPLATE" | "TENANTS_FILE" | "DATAQUERY_SEGMENT">;
  upstream: UpstreamClient;
  /** Defaults to one built from `config` (reads TENANTS_FILE now, once). */
  tenants?: TenantResolver;
}

/**
 * The upstream identity of the request: its access token. Personal API keys are never
 * forwarded upstream (CONTRACT §2).
 */
export function requireAccessToken(ctx: RequestContext): TenantCall {
  const { principal } = ctx;
  if (principal.kind === "api_key") {
    throw new GatewayError("FORBIDDEN", "Product operations need an access token; personal API keys are never forwarded upstream");
  }
  if (!principal.accessToken) throw new GatewayError("UNAUTHENTICATED", "Product operations need an access token");
  return { requestId: ctx.requestId, accessToken: principal.accessToken, signal: ctx.signal, tenant: principal.tenant };
}

/** Where the gateway streams a drive file's bytes (GET, with the same access token): src/rest/files.ts. */
export const fileDownloadUrl = (id: string): string => `/api/v1/files/${encodeURIComponent(id)}/content`;

const LOADERS = Symbol("product-loaders");

/** Each key its own upstream call (the upstream has no batch endpoints); failures stay per key. */
function perKey<V>(load: (id: string) => Promise<V>): DataLoader.BatchLoadFn<string, V> {
  return (ids) => Promise.all(ids.map((id) => load(id).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))));
}

export function createProductServices(deps: ProductServicesDeps): ProductServices {
  const { config, upstream } = deps;
  const base = requireApiBase(apiBase(config));
  const tenants = deps.tenants ?? createTenantResolver(config);
  const mail = createMailAdapter(upstream, base);
  const drive = createDriveAdapter(upstream, base);
  const search = createSearchAdapter(upstream, base);
  const meetings = createMeetingsAdapter(upstream, base);
  const enterprise = createEnterpriseAdapter(upstream, tenants, { dataquerySegment: config.DATAQUERY_SEGMENT });

  function loaders(ctx: RequestContext): ProductLoaders {
    const call = requireAccessToken(ctx);
    return memoize(ctx, LOADERS, () => ({
      thread: new DataLoader(perKey((id) => mail.getThread(call, id))),
      transcript: new DataLoader(perKey((id) => meetings.transcript(call, id))),
      summary: new DataLoader(perKey((id) => meetings.summary(call, id))),
      file: new DataLoader(perKey((id) => drive.getFile(call, id))),
    }));
  }

  return {
    messages: {
      async list(ctx, input) {
        const call = requireAccessToken(ctx);
        return mail.listMessages(call, parseInput(listMessagesInputSchema, input));
      },
      async send(ctx, input) {
        const call = requireAccessToken(ctx);
        return mail.sendMessage(call, parseInput(sendMessageInputSchema, input));
      },
      async thread(ctx, input) {
        const { thread } = loaders(ctx);
        return thread.load(parseInput(threadInputSchema, input).id);
      },
      async createDraft(ctx, input) {
        const call = requireAccessToken(ctx);
        return mail.createDraft(call, parseInput(createDraftInputSchema, input));
      },
    },
    calendar: {
      async events(ctx, input) {
        const call = requireAccessToken(ctx);
        return mail.listEvents(call, parseInput(calendarEventsInputSchema, input));
      },
    },
    bookings: {
      async create(ctx, input) {
        const call = requireAccessToken(ctx);
        return mail.createBooking(call, parseInput(createBookingInputSchema, input));
      },
    },
    files: {
      async get(ctx, input) {
        const { file } = loaders(ctx);
        return file.load(parseInput(fileIdInputSchema, input).id);
      },
      async upload(ctx, input) {
        const call = requireAccessToken(ctx);
        const { file, name, folderId, filename, contentType, size } = parseInput(uploadFileInputSchema, input);
        const asFile = file as Partial<File>;
        return drive.upload(call, {
          name,
          folderId,
          file: {
            data: file,
            filename: filename ?? (typeof asFile.name === "string" && asFile.name ? asFile.name : name ?? "upload"),
            contentType: contentType ?? (typeof asFile.type === "string" && asFile.type ? asFile.type : "application/octet-stream"),
            size,
          },
        });
      },
      async download(ctx, input) {
        const call = requireAccessToken(ctx);
        return drive.download(call, parseInput(fileIdInputSchema, input).id);
      },
      async search(ctx, input) {
        const call = requireAccessToken(ctx);
        return drive.search(call, parseInput(searchFilesInputSchema, input).query);
      },
      async share(ctx, input) {
        const call = requireAccessToken(ctx);
        return drive.createShare(call, parseInput(createShareInputSchema, input));
      },
    },
    search: {
      async query(ctx, input) {
        const call = requireAccessToken(ctx);
        return search.query(call, parseInput(searchQueryInputSchema, input));
      },
      async chat(ctx, input) {
        const call = requireAccessToken(ctx);
        return search.chat(call, parseInput(searchChatInputSchema, input));
      },
    },
    meetings: {
      async get(ctx, input) {
        requireAccessToken(ctx);
        return { id: parseInput(meetingIdInputSchema, input).id };
      },
      async create(ctx, input) {
        const call = requireAccessToken(ctx);
        return meetings.create(call, parseInput(createMeetingInputSchema, input));
      },
      async transcript(ctx, input) {
        const { transcript } = loaders(ctx);
        return transcript.load(parseInput(meetingIdInputSchema, input).id);
      },
      async summary(ctx, input) {
        const { summary } = loaders(ctx);
        return summary.load(parseInput(meetingIdInputSchema, input).id);
      },
    },
    enterprise: {
      async dataQuery(ctx, input) {
        const call = requireAccessToken(ctx);
        return enterprise.dataQuery(call, parseInput(dataQueryInputSchema, input).question);
      },
      async invoices(ctx, input) {
        const call = requireAccessToken(ctx);
        return enterprise.invoices(call, parseInput(invoicesInputSchema, input));
      },
    },
    workflows: {
      async run(ctx, input) {
        const call = requireAccessToken(ctx);
        const { id, input: workflowInput } = parseInput(runWorkflowInputSchema, input);
        return enterprise.runWorkflow(call, id, workflowInput);
      },
    },
    loaders,
  };
}
