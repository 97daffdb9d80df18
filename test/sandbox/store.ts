// The live, mutable state behind the routes: a copy of the seed plus everything created since.
import { unlink } from "node:fs/promises";
import type {
  Booking,
  BookingType,
  CalendarEvent,
  Draft,
  DriveFile,
  DriveFolder,
  Invoice,
  Meeting,
  MeetingSummary,
  MessageWithBody,
  SearchDocument,
  SeedData,
  Share,
  Thread,
  Transcript,
  Workflow,
  WorkflowRun,
} from "./model.ts";

export interface StoredFile {
  file: DriveFile;
  sha256: string;
  source: { kind: "buffer"; data: Buffer } | { kind: "path"; path: string };
}

export interface SearchSession {
  id: string;
  turns: { message: string; answer: string }[];
}

export interface TenantState {
  invoices: Invoice[];
  workflows: Workflow[];
  runs: WorkflowRun[];
}

export class SandboxStore {
  readonly seed: SeedData;
  messages: MessageWithBody[] = [];
  threads = new Map<string, Thread>();
  drafts: Draft[] = [];
  calendarEvents: CalendarEvent[] = [];
  bookingTypes: BookingType[] = [];
  bookings: Booking[] = [];
  folders: DriveFolder[] = [];
  files = new Map<string, StoredFile>();
  shares: Share[] = [];
  meetings = new Map<string, Meeting>();
  transcripts = new Map<string, Transcript>();
  summaries = new Map<string, MeetingSummary>();
  searchDocuments: SearchDocument[] = [];
  sessions = new Map<string, SearchSession>();
  tenants = new Map<string, TenantState>();
  /** Temp files owned by the drive (uploads), kept until reset/close. */
  readonly keptUploads = new Set<string>();
  private counter = 0;

  constructor(seed: SeedData) {
    this.seed = seed;
    this.load();
  }

  private load(): void {
    const s = structuredClone(this.seed);
    this.messages = s.messages;
    this.threads = new Map(s.threads.map((t) => [t.id, t]));
    this.drafts = [];
    this.calendarEvents = s.calendarEvents;
    this.bookingTypes = s.bookingTypes;
    this.bookings = s.bookings;
    this.folders = s.folders;
    this.files = new Map(
      s.files.map(({ content, sha256, ...file }) => [
        file.id,
        { file, sha256, source: { kind: "buffer", data: Buffer.from(content) } } satisfies StoredFile,
      ]),
    );
    this.shares = [];
    this.meetings = new Map(s.meetings.map((m) => [m.id, m]));
    this.transcripts = new Map(Object.entries(s.transcripts));
    this.summaries = new Map(Object.entries(s.summaries));
    this.searchDocuments = s.searchDocuments;
    this.sessions = new Map();
    this.tenants = new Map(Object.entries(s.tenants).map(([id, t]) => [id, { invoices: t.invoices, workflows: t.workflows, runs: [] }]));
    this.counter = 0;
  }

  /** Ids for created objects: `<prefix>_n000001`, … (deterministic, never clashing with seeded ids). */
  newId(prefix: string): string {
    this.counter += 1;
    return `${prefix}_n${String(this.counter).padStart(6, "0")}`;
  }

  /** Drops everything created since start (including uploaded files) and reloads the seed. */
  async reset(): Promise<void> {
    await this.removeUploads();
    this.load();
  }

  async removeUploads(): Promise<void> {
    const paths = [...this.keptUploads];
    this.keptUploads.clear();
    await Promise.all(paths.map((p) => unlink(p).catch(() => undefined)));
  }
}
