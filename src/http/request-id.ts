import { randomUUID } from "node:crypto";

const sane = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is sane (no header injection, bounded), else a new one. */
export const requestIdFrom = (header: string | undefined | null): string => (header && sane.test(header) ? header : randomUUID());
