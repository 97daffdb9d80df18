import { describe } from "vitest";
import { documentsBehaviour } from "../documents/behaviour.ts";
import { restDriver } from "../documents/rest-driver.ts";

describe("REST /api/v1/documents behaviour matrix", () => {
  documentsBehaviour((tg) => restDriver(tg.url));
});
