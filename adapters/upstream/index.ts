export * from "./base.ts";
export * from "./breaker.ts";
export * from "./client.ts";
export { describeInvalid, parseRetryAfter } from "./errors.ts";
export { isValidContentType, type UploadData, type UploadFile } from "./multipart.ts";
