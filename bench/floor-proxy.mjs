// bench:gateway's (e): the least a Node.js gateway can do for (c)'s call, as a reference. It takes
// any request, calls the upstream's GET /email/v1/messages?limit=20 with the caller's
// Authorization (undici, keep-alive), parses the JSON, wraps it as tRPC does ({"result":{"data"}})
// and writes it back: no routing, authentication, validation, policies, metrics or logging. Its
// ratio to (a) is the ceiling for any gateway that does the same I/O and JSON work on this machine.
import { createServer } from "node:http";
import { Agent, request } from "undici";

const upstream = process.env.UPSTREAM;
const agent = new Agent({ connections: 128, keepAliveTimeout: 10_000 });
const server = createServer(async (req, res) => {
  try {
    const answer = await request(`${upstream}/email/v1/messages?limit=20`, {
      dispatcher: agent,
      headers: { authorization: req.headers.authorization ?? "", accept: "application/json" },
    });
    const chunks = [];
    for await (const chunk of answer.body) chunks.push(chunk);
    const data = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const body = JSON.stringify({ result: { data } });
    res.writeHead(answer.statusCode, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  } catch {
    res.writeHead(502).end();
  }
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log(`floor proxy listening on ${process.env.PORT}`));
