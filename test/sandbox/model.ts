// The shapes of docs/api.md "Upstreams", as the sandbox serves them, plus the seed that fills them.

export interface Address {
  name?: string;
  email: string;
}

export const FOLDERS = ["inbox", "sent", "archive"] as const;
export type Folder = (typeof FOLDERS)[number];

export interface Message {
  id: string;
  threadId: string;
  folder: Folder;
  from: Address;
  to: Address[];
  cc: Address[];
  subject: string;
  snippet: string;
  receivedAt: string;
  unread: boolean;
  hasAttachments: boolean;
}

export interface MessageWithBody extends Message {
  body: string;
}

export interface Thread {
  id: string;
  subject: string;
}

export interface Draft {
  id: string;
  to: string[];
  subject: string;
  body: string;
  generated: boolean;
}

export type AttendeeResponse = "accepted" | "declined" | "tentative" | "needsAction";

export interface CalendarEvent {
  id: string;
  title: string;
  start: string;
  end: string;
  location?: string;
  attendees: { email: string; name?: string; response: AttendeeResponse }[];
  meetingUrl?: string;
}

export interface BookingType {
  id: string;
  name: string;
  durationMinutes: number;
}

export interface Booking {
  id: string;
  bookingTypeId: string;
  start: string;
  end: string;
  attendee: { name: string; email: string };
  status: "confirmed";
  notes?: string;
}

export interface DriveFolder {
  id: string;
  name: string;
}

export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  size: number;
  createdAt: string;
  modifiedAt: string;
  parentId?: string;
  webUrl: string;
}

/** A seeded drive file: its metadata plus its (UTF-8 text) content and that content's sha256. */
export interface SeedFile extends DriveFile {
  content: string;
  sha256: string;
}

export type SharePermission = "view" | "comment" | "edit";

export interface Share {
  id: string;
  fileId: string;
  url: string;
  permission: SharePermission;
  expiresAt?: string;
}

export const SEARCH_SOURCES = ["mail", "drive", "meetings", "wiki"] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

export interface Citation {
  title: string;
  url: string;
  source: string;
  snippet: string;
}

/** One entry of the corpus that /search/v1/query and /search/v1/chat answer from. */
export interface SearchDocument {
  id: string;
  title: string;
  url: string;
  source: SearchSource;
  text: string;
}

export interface Meeting {
  id: string;
  title: string;
  startsAt: string;
  durationMinutes: number;
  joinUrl: string;
  status: "scheduled" | "completed";
}

export interface Transcript {
  meetingId: string;
  segments: { speaker: string; startMs: number; endMs: number; text: string }[];
}

export interface MeetingSummary {
  meetingId: string;
  summary: string;
  actionItems: { text: string; owner?: string }[];
}

export const INVOICE_STATUSES = ["draft", "open", "paid", "overdue", "void"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface Invoice {
  id: string;
  number: string;
  customer: { id: string; name: string };
  currency: string;
  total: number;
  status: InvoiceStatus;
  issuedAt: string;
  dueAt?: string;
}

export interface Workflow {
  id: string;
  name: string;
}

export interface WorkflowRun {
  runId: string;
  workflowId: string;
  status: "queued";
  startedAt: string;
}

export interface TenantSeed {
  /** Newest first (issuedAt desc), the order GET /api/v1/invoices returns them in. */
  invoices: Invoice[];
  workflows: Workflow[];
}

/** Everything the sandbox starts with. Lists are in the order the list endpoints return them. */
export interface SeedData {
  seed: number;
  /** The mailbox owner: sender of "sent" messages, recipient of the others. */
  owner: Address;
  /** 60 messages, newest first (receivedAt desc, then id desc), across inbox/sent/archive, each with its body. */
  messages: MessageWithBody[];
  /** 10 threads; every message belongs to one. */
  threads: Thread[];
  /** 30 events, in start order (start asc, then id asc). */
  calendarEvents: CalendarEvent[];
  bookingTypes: BookingType[];
  bookings: Booking[];
  folders: DriveFolder[];
  files: SeedFile[];
  /** Completed meetings have a transcript and a summary; scheduled ones have neither. */
  meetings: Meeting[];
  transcripts: Record<string, Transcript>;
  summaries: Record<string, MeetingSummary>;
  searchDocuments: SearchDocument[];
  /** Keyed by tenant id: 45 invoices and 3 workflows each, different per tenant. */
  tenants: Record<string, TenantSeed>;
}
