import { describe } from "vitest";
import { documentsBehaviour } from "../documents/behaviour.ts";
import { graphqlDriver } from "../documents/graphql-driver.ts";

describe("GraphQL documents behaviour matrix", () => {
  documentsBehaviour((tg) => graphqlDriver(tg.url));
});
