// Deterministic seed data: the same seed (and tenant names) always gives the same objects.
import { createHash } from "node:crypto";
import { createRng, hashString, type Rng } from "./rng.ts";
import type {
  Address,
  AttendeeResponse,
  Booking,
  BookingType,
  CalendarEvent,
  DriveFolder,
  Folder,
  Invoice,
  InvoiceStatus,
  Meeting,
  MeetingSummary,
  MessageWithBody,
  SearchDocument,
  SeedData,
  SeedFile,
  TenantSeed,
  Thread,
  Transcript,
} from "./model.ts";

export const DEFAULT_SEED = 42;
/** "Now" for the seed: messages are before it, events and meetings around it. */
export const SEED_EPOCH = Date.parse("2026-01-15T12:00:00.000Z");
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const OWNER: Address = { name: "Sam Sandbox", email: "sam@sandbox.example" };

const FIRST = ["Ada", "Grace", "Alan", "Katherine", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger", "Radia"];
const LAST = [
  "Lovelace",
  "Hopper",
  "Turing",
  "Johnson",
  "Torvalds",
  "Hamilton",
  "Ritchie",
  "Liskov",
  "Thompson",
  "Allen",
  "Dijkstra",
  "Perlman",
];
const DOMAINS = ["contoso.example", "fabrikam.example", "northwind.example"];

const SUBJECTS = [
  "Q3 budget review",
  "Launch plan for the mobile app",
  "Hiring loop feedback",
  "Office move next month",
  "Customer escalation: Northwind",
  "Quarterly OKR draft",
  "Vendor contract renewal",
  "Security audit findings",
  "Design review: onboarding flow",
  "Team offsite agenda",
  "Pricing page experiment",
  "Incident 42 postmortem",
  "Release 2.4 go/no-go",
  "Partnership proposal",
];

const SENTENCES = [
  "Could you take a look before Friday?",
  "I have attached the latest numbers for your review.",
  "The team agreed to move forward with option B.",
  "Let's discuss the open questions in our next sync.",
  "We are still waiting on legal for the final sign-off.",
  "Thanks for the quick turnaround on this.",
  "The deadline has moved to the end of the month.",
  "Please update the tracker once the changes are in.",
  "Marketing would like a short summary for the newsletter.",
  "I think we should loop in finance before deciding.",
  "The customer confirmed the new delivery date.",
  "Two items are still blocked on the infrastructure team.",
];

const EVENT_TITLES = [
  "Standup",
  "1:1",
  "Design review",
  "Sprint planning",
  "Customer call",
  "Budget sync",
  "Hiring debrief",
  "All hands",
  "Architecture review",
  "Lunch and learn",
];
const LOCATIONS = ["Room Ada", "Room Turing", "Cafeteria", "HQ 4th floor"];
const RESPONSES: AttendeeResponse[] = ["accepted", "declined", "tentative", "needsAction"];

const FILE_NAMES = [
  "Q3 budget.csv",
  "Roadmap 2026.md",
  "Launch checklist.md",
  "Team contacts.csv",
  "Architecture notes.md",
  "Release notes 2.4.txt",
  "Pricing.json",
  "Onboarding guide.md",
  "Incident 42 report.txt",
  "Vendor list.csv",
  "Brand guidelines.md",
  "OKRs Q1.md",
  "Budget forecast.csv",
  "Meeting notes 2026-01-12.md",
  "README.txt",
];

const MEETING_TITLES = [
  "Weekly product sync",
  "Q3 budget review",
  "Launch retrospective",
  "Customer onboarding call",
  "Security audit readout",
  "Roadmap planning",
  "Hiring committee",
  "Board prep",
];

const WIKI = [
  ["Expense policy", "Expenses above 500 EUR need the approval of a budget owner. Receipts are submitted within 30 days."],
  ["Travel guidelines", "Book economy class for flights under six hours. Hotels are booked through the travel portal."],
  ["Release process", "Every release has a go/no-go meeting. The release manager signs off after the checklist is green."],
  ["Incident response", "Page the on-call engineer, open an incident channel and write a postmortem within five days."],
  ["Onboarding", "New joiners get a buddy, a laptop on day one and a 30-60-90 day plan with their manager."],
  ["Security basics", "Use the password manager, enable two-factor authentication and report phishing to security."],
] as const;

const CUSTOMERS = [
  "Acme Corp",
  "Globex",
  "Initech",
  "Umbrella",
  "Hooli",
  "Stark Industries",
  "Wayne Enterprises",
  "Soylent",
  "Tyrell",
  "Cyberdyne",
];
const CURRENCIES = ["EUR", "USD", "GBP"];

/**
 * A readable, stable id for a seeded object that examples name (threads, folders, files,
 * meetings): `thr_team_offsite_agenda`, `fld_finance`, `file_q3_budget_csv`. It still draws the
 * random id it replaces, so every other seeded value is what it was.
 */
function namedId(rng: Rng, prefix: string, name: string): string {
  rng.id(prefix);
  return `${prefix}_${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function person(rng: Rng): Address {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  return { name: `${first} ${last}`, email: `${first}.${last}@${rng.pick(DOMAINS)}`.toLowerCase() };
}

function people(rng: Rng, min: number, max: number): Address[] {
  const count = rng.int(min, max);
  const out: Address[] = [];
  while (out.length < count) {
    const p = person(rng);
    if (!out.some((o) => o.email === p.email)) out.push(p);
  }
  return out;
}

function paragraph(rng: Rng, min: number, max: number): string {
  return rng.sample(SENTENCES, rng.int(min, max)).join(" ");
}

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export function byNewest<T extends { id: string }>(key: (t: T) => string): (a: T, b: T) => number {
  return (a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

export function byOldest<T extends { id: string }>(key: (t: T) => string): (a: T, b: T) => number {
  const newest = byNewest(key);
  return (a, b) => -newest(a, b);
}

function seedMail(rng: Rng): { messages: MessageWithBody[]; threads: Thread[] } {
  const threads: Thread[] = rng.sample(SUBJECTS, 10).map((subject) => ({ id: namedId(rng, "thr", subject), subject }));
  const folders: Folder[] = ["inbox", "sent", "archive"];
  const messages: MessageWithBody[] = [];
  for (let i = 0; i < 60; i++) {
    // The first ten messages open one thread each and the first three cover each folder, so every
    // thread and folder is used whatever the seed.
    const thread = i < 10 ? (threads[i] as Thread) : rng.pick(threads);
    const folder: Folder = i < 3 ? (folders[i] as Folder) : rng.next() < 0.5 ? "inbox" : rng.pick(folders);
    const other = people(rng, 1, 2);
    const body = `Hi ${folder === "sent" ? (other[0]?.name ?? "").split(" ")[0] : "Sam"},\n\n${paragraph(rng, 2, 4)}\n\n${paragraph(rng, 1, 3)}\n\nBest,\n${folder === "sent" ? "Sam" : (other[0]?.name ?? "")}`;
    const receivedAt = SEED_EPOCH - rng.int(60, 30 * 24 * 60) * MINUTE - i * 1000;
    messages.push({
      id: rng.id("msg"),
      threadId: thread.id,
      folder,
      from: folder === "sent" ? { ...OWNER } : (other[0] as Address),
      to: folder === "sent" ? other : [{ ...OWNER }],
      cc: rng.bool(0.3) ? people(rng, 1, 2) : [],
      subject: thread.subject,
      snippet: "",
      receivedAt: iso(receivedAt),
      unread: folder === "inbox" && rng.bool(0.4),
      hasAttachments: rng.bool(0.2),
      body,
    });
  }
  // Replies after the first message of a thread get "Re: ".
  for (const thread of threads) {
    const inThread = messages.filter((m) => m.threadId === thread.id).sort(byOldest((m) => m.receivedAt));
    inThread.forEach((m, index) => {
      if (index > 0) m.subject = `Re: ${thread.subject}`;
    });
  }
  for (const m of messages) m.snippet = snippetOf(m.body);
  messages.sort(byNewest((m) => m.receivedAt));
  return { messages, threads };
}

export function snippetOf(body: string): string {
  const text = body
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

function seedCalendar(rng: Rng): CalendarEvent[] {
  const first = Date.parse("2026-01-05T00:00:00.000Z");
  const events: CalendarEvent[] = [];
  for (let i = 0; i < 30; i++) {
    const day = first + rng.int(0, 39) * DAY;
    const start = day + rng.int(16, 34) * 30 * MINUTE; // 08:00 .. 17:00 UTC
    const duration = rng.pick([15, 30, 45, 60, 90]);
    const event: CalendarEvent = {
      id: rng.id("evt"),
      title: rng.pick(EVENT_TITLES),
      start: iso(start),
      end: iso(start + duration * MINUTE),
      attendees: people(rng, 1, 4).map((p) => ({ email: p.email, name: p.name, response: rng.pick(RESPONSES) })),
    };
    if (rng.bool(0.5)) event.location = rng.pick(LOCATIONS);
    if (rng.bool(0.6)) event.meetingUrl = `https://meet.sandbox.example/${event.id.slice(4)}`;
    events.push(event);
  }
  return events.sort(byOldest((e) => e.start));
}

function seedBookings(rng: Rng): { bookingTypes: BookingType[]; bookings: Booking[] } {
  const bookingTypes: BookingType[] = [
    { id: "bt_intro30", name: "Intro call", durationMinutes: 30 },
    { id: "bt_demo60", name: "Product demo", durationMinutes: 60 },
    { id: "bt_support15", name: "Support slot", durationMinutes: 15 },
  ];
  const bookings: Booking[] = bookingTypes.map((type, i) => {
    const start = Date.parse("2026-01-20T09:00:00.000Z") + i * DAY + rng.int(0, 8) * 30 * MINUTE;
    const attendee = person(rng);
    return {
      id: rng.id("bkg"),
      bookingTypeId: type.id,
      start: iso(start),
      end: iso(start + type.durationMinutes * MINUTE),
      attendee: { name: attendee.name ?? attendee.email, email: attendee.email },
      status: "confirmed",
    };
  });
  return { bookingTypes, bookings };
}

function fileContent(rng: Rng, name: string): string {
  if (name.endsWith(".csv")) {
    const rows = ["id,name,amount,owner"];
    for (let i = 1; i <= rng.int(5, 40); i++) rows.push(`${i},${rng.pick(CUSTOMERS)},${rng.int(100, 99_999)},${rng.pick(FIRST)}`);
    return `${rows.join("\n")}\n`;
  }
  if (name.endsWith(".json")) {
    const plans = ["Free", "Team", "Business", "Enterprise"].map((plan) => ({ plan, monthly: rng.int(0, 120), seats: rng.int(1, 500) }));
    return `${JSON.stringify({ currency: rng.pick(CURRENCIES), plans }, null, 2)}\n`;
  }
  const title = name.replace(/\.[a-z]+$/, "");
  const heading = name.endsWith(".md") ? `# ${title}\n\n` : `${title}\n\n`;
  const paragraphs: string[] = [];
  for (let i = 0; i < rng.int(2, 6); i++) paragraphs.push(paragraph(rng, 2, 5));
  return `${heading}${paragraphs.join("\n\n")}\n`;
}

export function mimeTypeFor(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  const types: Record<string, string> = {
    csv: "text/csv",
    md: "text/markdown",
    txt: "text/plain",
    json: "application/json",
    pdf: "application/pdf",
    png: "image/png",
    jpg: "image/jpeg",
    jpeg: "image/jpeg",
    docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    zip: "application/zip",
  };
  return types[ext] ?? "application/octet-stream";
}

export function webUrlFor(fileId: string): string {
  return `https://drive.sandbox.example/files/${fileId}`;
}

function seedDrive(rng: Rng): { folders: DriveFolder[]; files: SeedFile[] } {
  const folders: DriveFolder[] = ["Finance", "Engineering", "Marketing"].map((name) => ({ id: namedId(rng, "fld", name), name }));
  const files: SeedFile[] = FILE_NAMES.map((name) => {
    const content = fileContent(rng, name);
    const createdAt = SEED_EPOCH - rng.int(10, 200) * DAY + rng.int(0, 1000) * MINUTE;
    const id = namedId(rng, "file", name);
    const file: SeedFile = {
      id,
      name,
      mimeType: mimeTypeFor(name),
      size: Buffer.byteLength(content),
      createdAt: iso(createdAt),
      modifiedAt: iso(createdAt + rng.int(0, 9) * DAY),
      webUrl: webUrlFor(id),
      content,
      sha256: sha256(content),
    };
    if (rng.bool(0.75)) file.parentId = rng.pick(folders).id;
    return file;
  });
  return { folders, files };
}

function seedMeetings(rng: Rng): Pick<SeedData, "meetings" | "transcripts" | "summaries"> {
  const meetings: Meeting[] = [];
  const transcripts: Record<string, Transcript> = {};
  const summaries: Record<string, MeetingSummary> = {};
  MEETING_TITLES.forEach((title, i) => {
    const completed = i < 5;
    const startsAt = SEED_EPOCH + (completed ? -rng.int(1, 20) : rng.int(1, 20)) * DAY + rng.int(0, 16) * 30 * MINUTE;
    const id = namedId(rng, "mtg", title);
    const durationMinutes = rng.pick([30, 45, 60]);
    meetings.push({
      id,
      title,
      startsAt: iso(startsAt),
      durationMinutes,
      joinUrl: `https://meet.sandbox.example/${id.slice(4)}`,
      status: completed ? "completed" : "scheduled",
    });
    if (!completed) return;
    const speakers = people(rng, 2, 4).map((p) => p.name ?? p.email);
    const segments: Transcript["segments"] = [];
    let at = 0;
    for (let s = 0; s < rng.int(6, 12); s++) {
      const length = rng.int(4_000, 40_000);
      segments.push({ speaker: rng.pick(speakers), startMs: at, endMs: at + length, text: paragraph(rng, 1, 2) });
      at += length + rng.int(0, 2_000);
    }
    transcripts[id] = { meetingId: id, segments };
    summaries[id] = {
      meetingId: id,
      summary: `${title}: ${paragraph(rng, 2, 3)}`,
      actionItems: rng.sample(SENTENCES, rng.int(2, 4)).map((text) => (rng.bool(0.7) ? { text, owner: rng.pick(speakers) } : { text })),
    };
  });
  return { meetings: meetings.sort(byOldest((m) => m.startsAt)), transcripts, summaries };
}

function seedSearch(data: Pick<SeedData, "messages" | "threads" | "files" | "meetings" | "summaries">): SearchDocument[] {
  const docs: SearchDocument[] = [];
  for (const thread of data.threads) {
    const bodies = data.messages.filter((m) => m.threadId === thread.id).map((m) => m.body);
    docs.push({
      id: `mail:${thread.id}`,
      title: thread.subject,
      url: `https://mail.sandbox.example/threads/${thread.id}`,
      source: "mail",
      text: bodies.join("\n\n"),
    });
  }
  for (const file of data.files)
    docs.push({ id: `drive:${file.id}`, title: file.name, url: file.webUrl, source: "drive", text: file.content });
  for (const meeting of data.meetings) {
    const summary = data.summaries[meeting.id];
    docs.push({
      id: `meetings:${meeting.id}`,
      title: meeting.title,
      url: meeting.joinUrl,
      source: "meetings",
      text: summary?.summary ?? `${meeting.title} (scheduled)`,
    });
  }
  for (const [title, text] of WIKI) {
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    docs.push({ id: `wiki:${slug}`, title, url: `https://wiki.sandbox.example/${slug}`, source: "wiki", text });
  }
  return docs;
}

function seedTenant(seed: number, tenant: string): TenantSeed {
  const rng = createRng((seed ^ hashString(tenant)) >>> 0);
  const customers = rng.sample(CUSTOMERS, 8).map((name) => ({ id: rng.id("cus"), name }));
  const currency = rng.pick(CURRENCIES);
  const statuses: InvoiceStatus[] = ["draft", "open", "paid", "overdue", "void"];
  const weighted: InvoiceStatus[] = ["paid", "paid", "paid", "paid", "open", "open", "open", "overdue", "overdue", "draft", "void"];
  const invoices: Invoice[] = [];
  const year = 2025;
  for (let i = 0; i < 45; i++) {
    const issued = Date.parse("2025-07-01T00:00:00.000Z") + rng.int(0, 190) * DAY + rng.int(0, 86_399) * 1000;
    const status = i < statuses.length ? (statuses[i] as InvoiceStatus) : rng.pick(weighted);
    const invoice: Invoice = {
      id: rng.id("inv"),
      number: `${tenant.slice(0, 3).toUpperCase()}-${year}-${String(i + 1).padStart(4, "0")}`,
      customer: { ...rng.pick(customers) },
      currency,
      total: rng.int(1_000, 2_500_000) / 100,
      status,
      issuedAt: iso(issued),
    };
    if (status !== "draft") invoice.dueAt = iso(issued + 30 * DAY);
    invoices.push(invoice);
  }
  return {
    invoices: invoices.sort(byNewest((inv) => inv.issuedAt)),
    workflows: [
      { id: "wf_invoice_reminder", name: "Send invoice reminders" },
      { id: "wf_month_end_close", name: "Month-end close" },
      { id: "wf_customer_onboarding", name: "Customer onboarding" },
    ],
  };
}

export function createSeedData(seed: number = DEFAULT_SEED, tenants: readonly string[] = []): SeedData {
  const rng = createRng(seed);
  const mail = seedMail(rng);
  const calendarEvents = seedCalendar(rng);
  const bookings = seedBookings(rng);
  const drive = seedDrive(rng);
  const meetings = seedMeetings(rng);
  const partial = { ...mail, ...drive, ...meetings };
  return {
    seed,
    owner: { ...OWNER },
    ...mail,
    calendarEvents,
    ...bookings,
    ...drive,
    ...meetings,
    searchDocuments: seedSearch(partial),
    tenants: Object.fromEntries([...tenants].sort().map((t) => [t, seedTenant(seed, t)])),
  };
}
