// Upload fuzzing: multipart requests to tRPC files.upload (FormData) and GraphQL uploadFile (the
// multipart request spec: operations, map, files), well-formed with random fields and values, and
// malformed (bad JSON in operations/map, map pointing nowhere, missing parts, truncated bodies,
// wrong boundaries). Answers keep each surface's error contract; nothing is INTERNAL or 5xx.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyValue, checkGraphQLAnswer, checkTrpcAnswer, fuzzParams, nastyString, startFuzzEnv, type FuzzEnv } from "./harness.ts";

let env: FuzzEnv;
beforeAll(async () => {
  env = await startFuzzEnv();
});
afterAll(() => env?.close());

const fileBytes = fc.oneof(fc.uint8Array({ maxLength: 2048 }), fc.constant(new Uint8Array(0)));
const fieldName = fc.oneof(fc.constantFrom("file", "name", "folderId", "operations", "map", "0", "1", "", "file[]"), nastyString(10));
const textValue = fc.oneof(
  nastyString(40),
  anyValue.map((v) => JSON.stringify(v) ?? "null"),
);

/** A FormData of random text fields and files. */
const form = fc
  .array(
    fc.tuple(
      fieldName,
      fc.oneof(
        textValue.map((v) => ({ text: v })),
        fc.tuple(fileBytes, nastyString(20)).map(([bytes, filename]) => ({ bytes, filename })),
      ),
    ),
    {
      maxLength: 5,
    },
  )
  .map((entries) => {
    const data = new FormData();
    for (const [name, value] of entries) {
      if ("text" in value) data.append(name, value.text);
      else data.append(name, new File([value.bytes], value.filename || "f.bin"), value.filename || "f.bin");
    }
    return data;
  });

/** The GraphQL multipart request spec, with each piece right or wrong. */
const graphqlForm = fc
  .record({
    operations: fc.oneof(
      fc.constant(
        JSON.stringify({
          query: 'mutation ($file: Upload!) { uploadFile(file: $file, name: "x.bin") { id size } }',
          variables: { file: null },
        }),
      ),
      fc.constant(
        JSON.stringify({ query: "mutation ($f: [Upload!]!) { a: uploadFile(file: $f) { id } }", variables: { f: [null, null] } }),
      ),
      textValue,
    ),
    map: fc.oneof(
      fc.constant(JSON.stringify({ 0: ["variables.file"] })),
      fc.constant(JSON.stringify({ 0: ["variables.f.0"], 1: ["variables.f.1"] })),
      fc.constant(JSON.stringify({ 0: ["variables.nope"], 1: ["query"] })),
      fc.constant(JSON.stringify({ 0: "variables.file" })),
      textValue,
    ),
    files: fc.array(fc.tuple(fc.constantFrom("0", "1", "2", "x"), fileBytes, nastyString(20)), { maxLength: 3 }),
    order: fc.constantFrom("spec", "files-first", "no-map", "no-operations"),
  })
  .map(({ operations, map, files, order }) => {
    const data = new FormData();
    const addFiles = () =>
      files.forEach(([name, bytes, filename]) => data.append(name, new File([bytes], filename || "f.bin"), filename || "f.bin"));
    if (order === "files-first") addFiles();
    if (order !== "no-operations") data.append("operations", operations);
    if (order !== "no-map") data.append("map", map);
    if (order !== "files-first") addFiles();
    return data;
  });

/** Raw multipart text: truncated, wrong boundary, no parts, header garbage. */
const rawMultipart = fc
  .record({
    declared: fc.constantFrom("xyz", "", "a".repeat(100), '"quoted"', "b c"),
    used: fc.constantFrom("xyz", "other", ""),
    parts: fc.array(
      fc.tuple(
        fc.constantFrom(
          'form-data; name="file"; filename="a.bin"',
          'form-data; name="operations"',
          'form-data; name="map"',
          "form-data",
          "attachment",
          "",
        ),
        fc.string({ maxLength: 60 }),
      ),
      { maxLength: 3 },
    ),
    end: fc.constantFrom("--\r\n", "", "\r\n", "--"),
  })
  .map(({ declared, used, parts, end }) => ({
    contentType: `multipart/form-data; boundary=${declared}`,
    body:
      parts.map(([disposition, content]) => `--${used}\r\nContent-Disposition: ${disposition}\r\n\r\n${content}\r\n`).join("") +
      `--${used}${end}`,
  }));

describe("upload fuzz", () => {
  it("tRPC files.upload answers random and malformed multipart in the tRPC contract", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          form.map((f) => ({ form: f })),
          rawMultipart,
        ),
        fc.constantFrom(2, 1, 0),
        async (input, credential) => {
          const authorization = env.credentials[credential];
          const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
          let body: FormData | string;
          if ("form" in input) body = input.form;
          else {
            headers["content-type"] = input.contentType;
            body = input.body;
          }
          const started = performance.now();
          const response = await fetch(`${env.url}/trpc/files.upload`, { method: "POST", headers, body });
          const text = await response.text();
          if (process.env["FUZZ_DEBUG"])
            console.log(
              "UPLOAD",
              Math.round(performance.now() - started),
              "ms",
              response.status,
              text.slice(0, 150),
              "form" in input
                ? JSON.stringify([...input.form.entries()].map(([k, v]) => [k, typeof v === "string" ? v.slice(0, 40) : `file ${v.size}`]))
                : JSON.stringify(input).slice(0, 300),
            );
          checkTrpcAnswer(
            response.status,
            text,
            `files.upload ${"form" in input ? JSON.stringify([...input.form.keys()]) : JSON.stringify(input).slice(0, 300)}`,
          );
        },
      ),
      fuzzParams(0x0f11e, 100),
    );
  });

  it("GraphQL uploadFile answers random and malformed multipart in the GraphQL contract", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          graphqlForm.map((f) => ({ form: f })),
          rawMultipart,
        ),
        fc.constantFrom(2, 1, 0),
        async (input, credential) => {
          const authorization = env.credentials[credential];
          const headers: Record<string, string> = { "apollo-require-preflight": "true", accept: "application/graphql-response+json" };
          if (authorization !== undefined) headers["authorization"] = authorization;
          let body: FormData | string;
          if ("form" in input) body = input.form;
          else {
            headers["content-type"] = input.contentType;
            body = input.body;
          }
          const response = await fetch(`${env.url}/graphql`, { method: "POST", headers, body });
          const text = await response.text();
          const where = `uploadFile ${"form" in input ? JSON.stringify([...input.form.entries()].map(([k, v]) => [k, typeof v === "string" ? v.slice(0, 80) : `file ${v.size}`])) : JSON.stringify(input).slice(0, 300)}`;
          checkGraphQLAnswer(response.status, text, where);
        },
      ),
      fuzzParams(0x0f11f, 100),
    );
  });

  // Regressions the fuzzer found, with the example that showed each.
  for (const [what, disposition] of [
    ["field", "form-data"],
    ["file", 'form-data; filename="a.bin"'],
  ]) {
    it(`a multipart ${what} part without a name is BAD_USER_INPUT, and the gateway lives on`, async () => {
      const response = await fetch(`${env.url}/trpc/files.upload`, {
        method: "POST",
        headers: { authorization: `Bearer ${env.products.token}`, "content-type": "multipart/form-data; boundary=xyz" },
        body: `--xyz\r\nContent-Disposition: ${disposition}\r\n\r\nhello\r\n--xyz--\r\n`,
      });
      const text = await response.text();
      checkTrpcAnswer(response.status, text, `nameless ${what} part`);
      expect(JSON.parse(text)).toMatchObject({ error: { data: { gatewayCode: "BAD_USER_INPUT" } } });
      expect((await fetch(`${env.url}/healthz`)).status).toBe(200);
    });
  }

  it("a multipart map into operations that are not an object is BAD_USER_INPUT, not INTERNAL", async () => {
    const form = new FormData();
    form.append("operations", "true");
    form.append("map", JSON.stringify({ 0: ["variables.nope"], 1: ["query"] }));
    const response = await fetch(`${env.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${env.products.token}`, "apollo-require-preflight": "true" },
      body: form,
    });
    const text = await response.text();
    checkGraphQLAnswer(response.status, text, "operations: true");
    expect(response.status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ errors: [{ extensions: { code: "BAD_USER_INPUT" } }] });
  });
});
