// Records raw HTTP exchanges with real MCP servers into test/fixtures/classify/real/<stack>.json.
// Each server runs in this process on 127.0.0.1 and an ephemeral port; nothing leaves loopback.
// Run: cd captures && npm ci && npm run capture. The captures are committed; the servers are not part of the product.
import { request as httpRequest } from "node:http";
import { writeFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { STACKS } from "./servers.mjs";

const OUT = fileURLToPath(new URL("../test/fixtures/classify/real/", import.meta.url));
const META_2026 = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const ACCEPT = "application/json, text/event-stream";
// A standby GET stream or a stream waiting for the client's answer never ends by itself: the capture cuts it.
const CUT_MS = 400;

/** One HTTP exchange, byte for byte as far as node:http lets us see it. */
function send(url, { method = "POST", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const sent = { ...headers };
    if (text !== undefined) sent["content-type"] ??= "application/json";
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method, headers: sent }, (res) => {
      const chunks = [];
      let cut = false;
      const timer = setTimeout(() => {
        cut = true;
        res.destroy();
      }, CUT_MS);
      const done = () => {
        clearTimeout(timer);
        const responseHeaders = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders[res.rawHeaders[i].toLowerCase()] = res.rawHeaders[i + 1];
        delete responseHeaders.date;
        resolve({
          request: { method, path: target.pathname, headers: sent, body: text ?? "" },
          response: { status: res.statusCode, headers: responseHeaders, body: Buffer.concat(chunks).toString("utf8") },
          cut,
        });
      };
      res.on("data", (c) => chunks.push(c));
      res.on("end", done);
      res.on("close", done);
      res.on("error", () => {});
    });
    // A server that holds the response headers back (a JSON-mode server waiting for the client's answer) is cut too.
    const silent = setTimeout(() => {
      req.destroy();
      resolve({ request: { method, path: target.pathname, headers: sent, body: text ?? "" }, response: null, cut: true });
    }, CUT_MS * 3);
    req.on("response", () => clearTimeout(silent));
    req.on("error", (error) => (error.code === "ECONNRESET" ? undefined : reject(error)));
    if (text !== undefined) req.write(text);
    req.end();
  });
}

const rpc = (id, method, params) => ({ jsonrpc: "2.0", id, method, params });
const legacyInit = (id) => rpc(id, "initialize", { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "capture", version: "1.0.0" } });
const legacyHeaders = (session) => ({ accept: ACCEPT, "mcp-protocol-version": "2025-11-25", ...(session ? { "mcp-session-id": session } : {}) });
const modernHeaders = (method, name) => ({ accept: ACCEPT, "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name ? { "mcp-name": name } : {}) });
const modernCall = (id, name, args) => rpc(id, "tools/call", { name, arguments: args, _meta: META_2026 });

/** The legacy (2025-11-25) script: a session from initialize to DELETE, and the failures around it. */
async function legacy(url, record, { stateful }) {
  const init = await send(url, { headers: { accept: ACCEPT }, body: legacyInit(1) });
  record("legacy-initialize", init);
  const session = init.response.headers["mcp-session-id"];
  const h = legacyHeaders(session);
  record("legacy-initialized-notification", await send(url, { headers: h, body: { jsonrpc: "2.0", method: "notifications/initialized" } }));
  record("legacy-tools-list", await send(url, { headers: h, body: rpc(2, "tools/list", {}) }));
  record("legacy-call-ok", await send(url, { headers: h, body: rpc(3, "tools/call", { name: "echo", arguments: { text: "hi" } }) }));
  record("legacy-call-tool-error", await send(url, { headers: h, body: rpc(4, "tools/call", { name: "fail", arguments: {} }) }));
  record("legacy-call-unknown-tool", await send(url, { headers: h, body: rpc(5, "tools/call", { name: "no_such_tool", arguments: {} }) }));
  record("legacy-unknown-method", await send(url, { headers: h, body: rpc(6, "no/such_method", {}) }));
  record("legacy-ping", await send(url, { headers: h, body: rpc(7, "ping", {}) }));
  record("legacy-accept-html", await send(url, { headers: { ...h, accept: "text/html" }, body: rpc(8, "tools/list", {}) }));
  record("legacy-elicitation-cut", await send(url, { headers: h, body: rpc(9, "tools/call", { name: "confirm", arguments: {} }) }));
  record("legacy-modern-request", await send(url, { headers: modernHeaders("tools/call", "echo"), body: modernCall(10, "echo", { text: "hi" }) }));
  if (!stateful) return;
  record("legacy-get-stream", await send(url, { method: "GET", headers: { accept: "text/event-stream", "mcp-protocol-version": "2025-11-25", "mcp-session-id": session } }));
  record("legacy-unknown-session", await send(url, { headers: legacyHeaders("00000000-0000-0000-0000-000000000000"), body: rpc(11, "tools/list", {}) }));
  record("legacy-delete", await send(url, { method: "DELETE", headers: h }));
  record("legacy-after-delete", await send(url, { headers: h, body: rpc(12, "tools/list", {}) }));
}

/** The 2026-07-28 script, for servers that speak it. */
async function modern(url, record) {
  record("modern-discover", await send(url, { headers: modernHeaders("server/discover"), body: rpc("d1", "server/discover", { _meta: META_2026 }) }));
  record("modern-tools-list", await send(url, { headers: modernHeaders("tools/list"), body: rpc("l1", "tools/list", { _meta: META_2026 }) }));
  record("modern-call-ok", await send(url, { headers: modernHeaders("tools/call", "echo"), body: modernCall("c1", "echo", { text: "hi" }) }));
  record("modern-call-tool-error", await send(url, { headers: modernHeaders("tools/call", "fail"), body: modernCall("c2", "fail", {}) }));
  record("modern-call-unknown-tool", await send(url, { headers: modernHeaders("tools/call", "no_such_tool"), body: modernCall("c3", "no_such_tool", {}) }));
  record("modern-unknown-method", await send(url, { headers: modernHeaders("no/such_method"), body: rpc("u1", "no/such_method", { _meta: META_2026 }) }));
  record("modern-header-mismatch", await send(url, { headers: modernHeaders("tools/call", "other"), body: modernCall("m1", "echo", { text: "hi" }) }));
  record("modern-elicitation", await send(url, { headers: modernHeaders("tools/call", "confirm"), body: modernCall("e1", "confirm", {}) }));
  record("modern-get", await send(url, { method: "GET", headers: { accept: "text/event-stream", "mcp-protocol-version": "2026-07-28" } }));
  record("modern-delete", await send(url, { method: "DELETE", headers: { "mcp-protocol-version": "2026-07-28" } }));
}

mkdirSync(OUT, { recursive: true });
for (const stack of STACKS) {
  const server = await stack.start();
  const exchanges = [];
  const record = (name, exchange) => exchanges.push({ name, ...exchange });
  try {
    for (const era of stack.eras) {
      if (era === "modern") await modern(server.url, record);
      else await legacy(server.url, record, { stateful: era === "legacy-stateful" });
    }
  } finally {
    await server.close();
  }
  writeFileSync(`${OUT}${stack.id}.json`, `${JSON.stringify({ stack: stack.label, exchanges }, null, 2)}\n`);
  console.log(`${stack.id}: ${exchanges.length} exchanges`);
}
process.exit(0);
