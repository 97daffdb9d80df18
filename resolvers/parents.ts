// What the resolvers of a type get as their parent, where it is not the service's own record
// (codegen.ts maps the SDL's types onto these). Kept apart from the resolvers so that the
// generated types import no resolver.
import type { DocumentSummary, DocumentVersion } from "../src/contract/documents.ts";
import type { DriveFile, DriveSearchHit, Meeting } from "../src/services/products.ts";

/** A document as resolvers get it; Query.trash's also carry deletedAt. */
export type DocumentParent = DocumentSummary & { deletedAt?: string };

/** A version as resolvers get it: with its document's id, for its text field. */
export type DocumentVersionParent = DocumentVersion & { documentId: string };

/** A drive file as the products give it; search hits also carry a score. */
export type DriveFileParent = DriveFile & Partial<Pick<DriveSearchHit, "score">>;

/** meeting(id) knows only the id; createMeeting knows everything. */
export type MeetingParent = Pick<Meeting, "id"> & Partial<Meeting>;
