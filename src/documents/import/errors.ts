// The ways an upload is refused: not a .docx we will read (415), or too big once opened (413).
import { GatewayError } from "../../core/errors.ts";

export const notDocx = (reason: string): GatewayError =>
  new GatewayError("UNSUPPORTED_MEDIA_TYPE", `The upload is not a .docx document that can be imported: ${reason}`);

export const tooManyEntries = (limit: number): GatewayError =>
  new GatewayError("PAYLOAD_TOO_LARGE", `The .docx holds more than ${limit} zip entries`, { details: { limit } });

export const expandsTooFar = (limit: number): GatewayError =>
  new GatewayError("PAYLOAD_TOO_LARGE", `The .docx expands to more than ${limit} bytes`, { details: { limit } });
