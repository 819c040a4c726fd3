import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { MODERN, modernMeta } from "../helpers/server.ts";
import { npmRun, type NpmServer } from "../helpers/npm-start.ts";

// Issue 27, finding 2, end to end on workerd (npm run serve): a proxied SSE answer to a client that reads nothing.
// The upstream offers an endless stream; what Faultline reads of it is paced by the client, so the upstream can
// write only what the sockets and workerd's buffers between it and the client hold (9 MB here), not the stream the
// journal's and the recording's tee kept reading (8 MB a second more on this machine, 30 on a fast one).

/** What the upstream may have written while the client read nothing for HOLD_MS: the buffers on the way. */
const BOUND = 32 * 1024 * 1024;
const HOLD_MS = 6_000;
/** What it may still write in the second half of that time, once those buffers are full. */
const PLATEAU = 4 * 1024 * 1024;

let server: NpmServer;
let upstreamUrl = "";
const sent = { bytes: 0 };
const upstream = createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c));
  req.on("end", () => {
    const method = (JSON.parse(body || "{}") as { method?: string }).method;
    if (method !== "tools/call") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [] } }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const event = `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x".repeat(64 * 1024) } })}\n\n`;
    const flood = () => {
      while (!res.destroyed) {
        sent.bytes += event.length;
        if (!res.write(event)) return void res.once("drain", flood);
      }
    };
    flood();
  });
});

before(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  // workerd itself (npm run serve): the in-process harness puts a Node proxy of its own in front, which reads eagerly.
  server = await npmRun("serve", undefined, { FAULTLINE_UPSTREAMS: new URL(upstreamUrl).origin });
});
after(async () => {
  upstream.closeAllConnections();
  upstream.close();
  await server?.close();
});

test("a proxied SSE stream to a client that reads nothing for 6 s makes Faultline read at most 32 MB of an endless upstream, and nothing more once the buffers are full", async () => {
  const created = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "baseline", upstream: upstreamUrl }) });
  assert.equal(created.status, 201, await created.clone().text());
  const { mcpUrl } = (await created.json()) as { mcpUrl: string };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "flood", arguments: {}, _meta: modernMeta() } });
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "flood" },
    });
    req.on("response", resolve).on("error", reject);
    req.end(body);
  });
  res.pause();
  assert.equal(res.statusCode, 200);
  await sleep(HOLD_MS / 2);
  const half = sent.bytes;
  await sleep(HOLD_MS / 2);
  const held = sent.bytes;
  res.destroy();
  assert.ok(half > 0, "the upstream was called and started its stream");
  assert.ok(held <= BOUND, `the upstream wrote ${held} bytes to a proxied client that read none`);
  // Once the buffers on the way are full, nothing more is read: a tee kept reading (8 MB a second here).
  assert.ok(held - half <= PLATEAU, `the upstream wrote ${held - half} more bytes in the last ${HOLD_MS / 2} ms`);
});
