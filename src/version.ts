import { createRequire } from "node:module";

export const packageVersion: string = (createRequire(import.meta.url)("../package.json") as { version: string }).version;
