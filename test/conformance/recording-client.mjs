#!/usr/bin/env node
// A small MCP client for the conformance suite's CLIENT mode: it drives whatever scripted server the suite
// starts (the URL is the last argv) far enough to exercise the scenario, and keeps every raw HTTP exchange
// in the JSONL file named by FAULTLINE_EXCHANGES_FILE, so Faultline's classifier can be checked against
// servers nobody on this project wrote. Raw fetch on purpose: no SDK repairs or hides what the server sent.
//   MCP_CONFORMANCE_SCENARIO          the scenario (set by the suite)
//   MCP_CONFORMANCE_PROTOCOL_VERSION  2026-07-28 selects the stateless wire; anything else the 2025 handshake
import { encodeHeaderValue, exchange, paramHeaders, paramHeaderValues, readResponse, recorder } from "./wire.mjs";

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const CLIENT_INFO = { name: "faultline-recording-client", version: "0.1.0" };
const CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };
const MAX_ROUNDS = 5;

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "unknown";
const record = recorder(process.env.FAULTLINE_EXCHANGES_FILE, scenario);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let nextId = 1;

/** Arguments for tools whose scenario looks at the values; other tools get values made from their schema. */
const ARGUMENTS = {
  test_custom_headers: {
    region: "us-west1",
    priority: 42,
    verbose: false,
    debug: true,
    empty_val: "",
    method_val: "GET",
    float_val: 3.14,
    non_ascii_val: "日本語",
    whitespace_val: "  padded  ",
    leading_space_val: " leading",
    trailing_space_val: "trailing ",
    internal_space_val: "a b c",
    control_char_val: "bell\u0007here",
    crlf_val: "line1\r\nline2",
    tab_val: "\tindented",
    query: "not mirrored",
  },
  test_custom_headers_null: { region: "eu-central1", priority: 7, verbose: null, query: "null test" },
};

function sample(schema) {
  switch (schema?.type) {
    case "integer":
      return schema.default ?? 1;
    case "number":
      return schema.default ?? 1.5;
    case "boolean":
      return schema.default ?? true;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return schema?.default ?? schema?.enum?.[0] ?? "faultline";
  }
}

function argumentsFor(tool) {
  if (ARGUMENTS[tool.name]) return ARGUMENTS[tool.name];
  const schema = tool.inputSchema ?? {};
  const args = {};
  for (const name of schema.required ?? []) args[name] = sample(schema.properties?.[name]);
  return args;
}

/** What this client answers to each input request: accept with schema-made content, a canned sample, no roots. */
function answer(inputRequests) {
  const out = {};
  for (const [key, request] of Object.entries(inputRequests ?? {})) {
    if (request?.method === "elicitation/create") {
      const properties = request.params?.requestedSchema?.properties ?? {};
      out[key] = { action: "accept", content: Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, sample(s)])) };
    } else if (request?.method === "sampling/createMessage") {
      out[key] = { role: "assistant", content: { type: "text", text: "A sampled answer" }, model: "faultline-test-model", stopReason: "endTurn" };
    } else if (request?.method === "roots/list") {
      out[key] = { roots: [{ uri: "file:///tmp/faultline", name: "scratch" }] };
    }
  }
  return out;
}

// ---- 2026-07-28: stateless requests, MRTR retries ----

function modernHeaders(method, params, version, extra = {}) {
  const name = method === "resources/read" ? params.uri : ["tools/call", "prompts/get"].includes(method) ? params.name : undefined;
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": version,
    "mcp-method": method,
    ...(typeof name === "string" ? { "mcp-name": encodeHeaderValue(name) } : {}),
    ...extra,
  };
}

const modern = { version: MODERN };

/** One 2026-07-28 request; an UnsupportedProtocolVersion answer naming a version this client speaks is retried once. */
async function modernRequest(method, params = {}, extraHeaders = {}, label = method) {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const id = nextId++;
    const meta = {
      "io.modelcontextprotocol/protocolVersion": modern.version,
      "io.modelcontextprotocol/clientCapabilities": CAPABILITIES,
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    };
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } });
    const result = await exchange(record, { label, url, headers: modernHeaders(method, params, modern.version, extraHeaders), body });
    const { message } = readResponse(result, id);
    const supported = message?.error?.code === -32022 ? message.error.data?.supported : undefined;
    if (Array.isArray(supported) && supported.includes(MODERN) && attempt === 0) {
      modern.version = MODERN;
      continue;
    }
    return message;
  }
  return undefined;
}

/** Calls tools breadth first: every first round, then every retry, so unrelated calls run between MRTR rounds. */
async function callTools(tools) {
  let pending = tools.map((tool) => ({ tool, args: argumentsFor(tool), extra: {}, round: 0 }));
  while (pending.length > 0) {
    const next = [];
    for (const call of pending) {
      const headers = paramHeaderValues(paramHeaders(call.tool) ?? [], call.args);
      const label = call.round === 0 ? `tools/call ${call.tool.name}` : `tools/call ${call.tool.name} retry ${call.round}`;
      const message = await modernRequest("tools/call", { name: call.tool.name, arguments: call.args, ...call.extra }, headers, label);
      const result = message?.result;
      // 2026-07-28: an absent resultType means complete; only input_required asks for a retry.
      if (result?.resultType !== "input_required" || call.round >= MAX_ROUNDS) continue;
      const extra = {};
      if (result.inputRequests) extra.inputResponses = answer(result.inputRequests);
      if (result.requestState !== undefined) extra.requestState = result.requestState;
      next.push({ ...call, extra, round: call.round + 1 });
    }
    pending = next;
  }
}

async function runModern() {
  const discover = await modernRequest("server/discover");
  const capabilities = discover?.result?.capabilities ?? { tools: {} };
  if (capabilities.tools) {
    const listed = (await modernRequest("tools/list"))?.result?.tools ?? [];
    // 2026-07-28: clients MUST drop tools whose x-mcp-header annotations are invalid.
    await callTools(listed.filter((tool) => paramHeaders(tool) !== undefined));
  }
  if (capabilities.resources) {
    const resources = (await modernRequest("resources/list"))?.result?.resources ?? [];
    for (const resource of resources) await modernRequest("resources/read", { uri: resource.uri }, {}, `resources/read ${resource.uri}`);
  }
  if (capabilities.prompts) {
    const prompts = (await modernRequest("prompts/list"))?.result?.prompts ?? [];
    for (const prompt of prompts) {
      const args = Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, "faultline"]));
      await modernRequest("prompts/get", { name: prompt.name, arguments: args }, {}, `prompts/get ${prompt.name}`);
    }
  }
}

// ---- 2025-11-25: initialize handshake, SSE resumption with Last-Event-ID ----

const legacy = { sessionId: undefined, version: LEGACY };

function legacyHeaders(extra = {}) {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(legacy.sessionId ? { "mcp-session-id": legacy.sessionId } : {}),
    ...(legacy.sessionId ? { "mcp-protocol-version": legacy.version } : {}),
    ...extra,
  };
}

async function legacyPost(method, params, label = method) {
  const id = nextId++;
  const body = JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
  const result = await exchange(record, { label, url, headers: legacyHeaders(), body });
  return { id, result, ...readResponse(result, id) };
}

/** A POST stream that ended without its response: wait `retry`, then GET with Last-Event-ID (at most twice). */
async function resume(id, events, endedAt) {
  let lastEventId = events.findLast((e) => e.id !== undefined)?.id;
  let wait = events.findLast((e) => e.retry !== undefined)?.retry ?? 1000;
  let since = endedAt;
  for (let attempt = 1; attempt <= 2 && lastEventId !== undefined; attempt += 1) {
    await sleep(Math.max(0, since + wait - Date.now()));
    const holds = (text) => readResponse({ headers: { "content-type": "text/event-stream" }, body: text }, id).message !== undefined;
    const result = await exchange(record, {
      label: `GET resume ${attempt}`,
      method: "GET",
      url,
      headers: legacyHeaders({ accept: "text/event-stream", "last-event-id": lastEventId }),
      expectedId: id,
      jsonrpcMethod: "tools/call",
      stopWhen: holds,
    });
    const read = readResponse(result, id);
    if (read.message) return read.message;
    lastEventId = read.events.findLast((e) => e.id !== undefined)?.id ?? lastEventId;
    wait = read.events.findLast((e) => e.retry !== undefined)?.retry ?? wait;
    since = Date.now();
  }
  return undefined;
}

async function runLegacy() {
  const init = await legacyPost("initialize", { protocolVersion: LEGACY, capabilities: CAPABILITIES, clientInfo: CLIENT_INFO });
  legacy.sessionId = init.result.headers["mcp-session-id"];
  legacy.version = init.message?.result?.protocolVersion ?? LEGACY;
  await exchange(record, {
    label: "notifications/initialized",
    url,
    headers: legacyHeaders(),
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  const tools = (await legacyPost("tools/list")).message?.result?.tools ?? [];
  for (const tool of tools) {
    const call = await legacyPost("tools/call", { name: tool.name, arguments: argumentsFor(tool) }, `tools/call ${tool.name}`);
    if (call.message || !call.events.length) continue;
    await resume(call.id, call.events, Date.now());
  }
}

const run = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION === MODERN ? runModern : runLegacy;
run().then(
  () => process.exit(0),
  (error) => {
    console.error(`recording client failed in ${scenario}:`, error);
    process.exit(1);
  },
);
