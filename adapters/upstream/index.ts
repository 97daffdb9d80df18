export * from "./base.ts";
export * from "./breaker.ts";
export * from "./client.ts";
export { describeInvalid, parseRetryAfter } from "./errors.ts";
export { isValidContentType, type UploadData, type UploadFile } from "./multipart.ts";
export { isPrivateAddress } from "./address-guard.ts";
export type { UpstreamMetrics } from "./metrics.ts";
export { RetryBudget, type RetryBudgetSettings } from "./retry-budget.ts";
export { createDeadline, Deadlines, DeadlineExceeded, type Deadline } from "./timeout.ts";
