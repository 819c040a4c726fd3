import type { TestContext } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient } from "@modelcontextprotocol/ext-tasks/client";
import type { Check } from "../../src/checks/index.ts";
import { checksOnceJournalled } from "./checks.ts";
import { createSession, MODERN, postModern, type TestServer } from "./server.ts";

// The clients of the tasks.* scenario tests (test/tasks/): a scripted poster and the ext-tasks client (0.2.2) on a
// fresh session, and the checks its journal gets.

type Json = Record<string, any>;
type Server = Pick<TestServer, "url">;
type TaskOptions = Parameters<typeof createTaskSessionFromClient>[1];

/** The capabilities of a client of the tasks extension. */
export const TASKS_EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };

/** The session's checks by id once its journal holds `entries` exchanges, those whose id starts with `prefix`. */
export async function checksById(server: Server, sessionId: string, entries: number, prefix = ""): Promise<Record<string, Check>> {
  const checks = await checksOnceJournalled(server, sessionId, entries);
  return Object.fromEntries(checks.filter((c) => c.id.startsWith(prefix)).map((c) => [c.id, c]));
}

/** A scripted client on a new session of `scenario`: `post` sends one 2026-07-28 request (ids from 1) with Mcp-Name `name`. */
export async function scriptedSession(server: Server, scenario: string, params: Json = {}, capabilities: Json = TASKS_EXT) {
  const session = await createSession(server, scenario, params);
  let id = 1;
  const post = (method: string, body: Json, name: string) => postModern(session.mcpUrl, id++, method, body, { capabilities, headers: { "mcp-name": name } });
  return {
    sessionId: session.id,
    post,
    /** `post`, and the JSON body of its answer. */
    postJson: async (method: string, body: Json, name: string) => (await (await post(method, body, name)).json()) as Json,
    /** How many requests were sent so far (the journal's entries). */
    sent: () => id - 1,
  };
}

export interface ExtTasksOptions {
  params?: Json;
  /** The client's capabilities besides the extension's (sent by the SDK client and in the request framing). */
  capabilities?: Json;
  onInputRequest?: TaskOptions["onInputRequest"];
  /** Sees each HTTP response before its body is handed to the ext-tasks client (a host's own error handling). */
  onResponse?: (res: Response) => void;
}

/** The ext-tasks client on a new session of `scenario`, closed after the test, with the number of POSTs it made so far. */
export async function extTasksSession(t: TestContext, server: Server, scenario: string, options: ExtTasksOptions = {}) {
  const session = await createSession(server, scenario, options.params ?? {});
  const capabilities = options.capabilities ?? {};
  let id = 1000;
  let posts = 1; // the SDK client's server/discover
  const rawDispatch: TaskOptions["rawDispatch"] = async (request, dispatchOptions) => {
    const message = request as Json;
    const name: Record<string, string> = message.method === "tools/call" ? { "mcp-name": String(message.params?.name) } : {};
    posts++;
    const res = await fetch(session.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": String(message.method), ...name, ...dispatchOptions?.context?.headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, ...message }),
    });
    const body = (await res.json()) as Json;
    options.onResponse?.(res);
    return body.error ? { kind: "error", error: body.error } : { kind: "result", result: body.result };
  };
  const info = { name: "ext-tasks-test", version: "0.0.0" };
  const client = new Client(info, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(session.mcpUrl)));
  const tasks = createTaskSessionFromClient(client, {
    endpointId: session.id,
    rawDispatch,
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: info, clientCapabilities: capabilities },
    ...(options.onInputRequest ? { onInputRequest: options.onInputRequest } : {}),
  });
  t.after(async () => {
    await tasks.close();
    await client.close();
  });
  return { tasks, sessionId: session.id, posts: () => posts };
}
