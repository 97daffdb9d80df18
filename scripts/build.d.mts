// Types of scripts/build.mjs for the TypeScript that imports it (bench/startup.ts, test/deploy).
/** Why dist/ must be (re)built, or undefined when it is up to date. */
export function staleReason(): string | undefined;
/** Builds dist/ from scratch; returns the milliseconds it took. */
export function build(): number;
