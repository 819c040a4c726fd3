/**
 * `npm run bench:slow-reader` (issue 27, finding 2): workerd's resident memory while a proxied stream goes to a client
 * that never reads. An upstream on loopback answers every tools/call with an SSE stream of 64 KiB notifications,
 * written as fast as its socket takes them, without end. Faultline runs under `npm run serve` (workerd itself) with
 * that upstream allowed (FAULTLINE_UPSTREAMS); for each scenario a proxied session is created, one tools/call is sent
 * and its response body is never read for HOLD seconds, while workerd's VmRSS is read from /proc every second.
 * Printed per scenario: workerd's RSS before the call, its maximum and its value at the end of the hold, the bytes
 * the upstream wrote, and the bytes the client had been sent (in its socket, unread) by then. A 5 s baseline call runs
 * first, unreported, so the figures are not the first session's start-up.
 *
 * Scenarios: `baseline` (forwarded as is: the relay of src/journal/capture.ts), `streams.cut_before_response` (an
 * altering fault that passes the upstream's notifications on, src/proxy/answer.ts) and `malformed.truncated_json`
 * (an altering fault that reads the upstream's stream for its answer, up to MAX_UPSTREAM_ANSWER_BYTES).
 *
 * Usage: npm run bench:slow-reader [-- --seconds 60] [-- --scenario baseline]
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, totalmem } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { residentKiB, startServe } from "./servers.ts";

const SCENARIOS = ["baseline", "streams.cut_before_response", "malformed.truncated_json"];
const MODERN = "2026-07-28";

interface Figures {
  scenario: string;
  seconds: number;
  startMiB: number;
  maxMiB: number;
  endMiB: number;
  upstreamSentMiB: number;
  clientBufferedMiB: number;
}

/** The endless upstream: tools/list answers an empty catalogue; tools/call answers a stream that never ends. */
function floodUpstream(): { server: Server; sent: { bytes: number } } {
  const sent = { bytes: 0 };
  const note = JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x".repeat(64 * 1024) } });
  const event = `data: ${note}\n\n`;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c));
    req.on("end", () => {
      const { id, method } = JSON.parse(body || "{}") as { id?: unknown; method?: string };
      if (method !== "tools/call") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [] } }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const flood = () => {
        while (!res.destroyed) {
          sent.bytes += event.length;
          if (!res.write(event)) return void res.once("drain", flood);
        }
      };
      flood();
    });
  });
  return { server, sent };
}

/** Sends one proxied tools/call and resolves with its response, whose body the caller leaves unread. */
async function call(serverUrl: string, upstreamUrl: string, scenario: string): Promise<IncomingMessage> {
  const created = await fetch(`${serverUrl}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario, upstream: upstreamUrl }) });
  if (created.status !== 201) throw new Error(`POST /api/sessions answered ${created.status}: ${await created.text()}`);
  const { mcpUrl } = (await created.json()) as { mcpUrl: string };
  const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "slow-reader", version: "1.0.0" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "flood", arguments: {}, _meta: meta } });
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "flood" },
    });
    req.on("response", (res) => (res.pause(), resolve(res))).on("error", reject);
    req.end(body);
  });
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** One scenario: a call whose answer is not read for `seconds`, with workerd's RSS read every second meanwhile. */
async function hold(serverUrl: string, pid: number, upstream: { url: string; sent: { bytes: number } }, scenario: string, seconds: number): Promise<Figures> {
  const startKiB = await residentKiB(pid);
  upstream.sent.bytes = 0;
  const res = await call(serverUrl, upstream.url, scenario);
  let maxKiB = startKiB;
  let endKiB = startKiB;
  for (let s = 1; s <= seconds; s++) {
    await sleep(1000);
    endKiB = await residentKiB(pid);
    maxKiB = Math.max(maxKiB, endKiB);
    if (s % 10 === 0) console.error(`  ${scenario}: ${s} s, workerd ${mib(endKiB * 1024)} MiB, upstream sent ${mib(upstream.sent.bytes)} MiB`);
  }
  const figures = {
    scenario,
    seconds,
    startMiB: mib(startKiB * 1024),
    maxMiB: mib(maxKiB * 1024),
    endMiB: mib(endKiB * 1024),
    upstreamSentMiB: mib(upstream.sent.bytes),
    clientBufferedMiB: mib(res.socket?.bytesRead ?? 0),
  };
  res.destroy();
  await sleep(2000); // the exchange is journalled and its upstream released before the next scenario
  return figures;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: "string", default: "60" }, scenario: { type: "string", multiple: true } } });
  const seconds = Number(values.seconds);
  const scenarios = values.scenario ?? SCENARIOS;
  const { server, sent } = floodUpstream();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const faultline = await startServe({ FAULTLINE_UPSTREAMS: new URL(upstreamUrl).origin });
  const results: Figures[] = [];
  try {
    // Warm-up, not reported: the first session and the first proxied call load code and caches once.
    await hold(faultline.url, faultline.pid, { url: upstreamUrl, sent }, "baseline", 5);
    for (const scenario of scenarios) results.push(await hold(faultline.url, faultline.pid, { url: upstreamUrl, sent }, scenario, seconds));
  } finally {
    server.closeAllConnections();
    server.close();
    await faultline.stop();
  }
  console.log(`slow reader, ${seconds} s per scenario, npm run serve, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${mib(totalmem())} MiB RAM`);
  console.log("| Scenario | workerd RSS before | max | at the end | upstream wrote | client socket received (unread) |");
  console.log("|---|---|---|---|---|---|");
  for (const r of results) console.log(`| \`${r.scenario}\` | ${r.startMiB} MiB | ${r.maxMiB} MiB | ${r.endMiB} MiB | ${r.upstreamSentMiB} MiB | ${r.clientBufferedMiB} MiB |`);
  console.log(JSON.stringify(results));
}

await main();
