// Runs inside Chromium (bundled by cors.browser.ts with esbuild): the official v2 SDK client and a raw fetch, from a
// page on another loopback origin than the server's. Each answer is reduced to plain data for the test to read.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

export interface Outcome {
  ok: boolean;
  content?: unknown;
  name?: string;
  message?: string;
  status?: number;
  code?: unknown;
}

function failure(error: unknown): Outcome {
  const e = error as { name?: string; message?: string; status?: number; code?: unknown };
  return { ok: false, name: e?.name, message: e?.message, status: typeof e?.status === "number" ? e.status : undefined, code: e?.code };
}

/** Connects, calls echo `calls` times, and reports each call (or the failed connect). */
async function echo(url: string, calls: number): Promise<Outcome[]> {
  const client = new Client({ name: "faultline-browser", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  } catch (error) {
    return [failure(error)];
  }
  const outcomes: Outcome[] = [];
  for (let i = 0; i < calls; i++) {
    try {
      outcomes.push({ ok: true, content: (await client.callTool({ name: "echo", arguments: { text: `call ${i + 1}` } })).content });
    } catch (error) {
      outcomes.push(failure(error));
    }
  }
  await client.close().catch(() => undefined);
  return outcomes;
}

/** One POST with fetch: the status and the exposed headers a script can read, or the network error. */
async function post(url: string, body: unknown): Promise<{ status?: number; retryAfter?: string | null; wwwAuthenticate?: string | null; error?: string }> {
  try {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(body) });
    await res.text();
    return { status: res.status, retryAfter: res.headers.get("retry-after"), wwwAuthenticate: res.headers.get("www-authenticate") };
  } catch (error) {
    return { error: String(error) };
  }
}

(window as unknown as { faultline: unknown }).faultline = { echo, post };
