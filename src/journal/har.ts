import type { JournalEntry } from "./entry.ts";
import { SERVER_INFO } from "../wire/versions.ts";

const toPairs = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => ({ name, value }));

/** The HAR 1.2 log's head; custom fields start with an underscore, as HAR allows. */
const HAR_HEAD = { version: "1.2", creator: { name: SERVER_INFO.name, version: SERVER_INFO.version } };

/** The HAR log's text around its entries, for writing the entries one page at a time. */
export const HAR_OPEN = `{"log":${JSON.stringify(HAR_HEAD).slice(0, -1)},"entries":[`;
export const HAR_CLOSE = "]}}";

/** One journal entry as a HAR entry. */
export function harEntry(e: JournalEntry, origin: string) {
  return {
    startedDateTime: e.time,
    time: e.durationMs,
    request: {
      method: e.request.method,
      url: origin + e.request.url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: toPairs(e.request.headers),
      queryString: [],
      ...(e.request.method === "POST"
        ? { postData: { mimeType: e.request.headers["content-type"] ?? "application/json", text: e.request.body.text } }
        : {}),
      headersSize: -1,
      bodySize: e.request.body.bytes,
    },
    response: {
      status: e.response.status,
      statusText: "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: toPairs(e.response.headers),
      content: { size: e.response.body.bytes, mimeType: e.response.headers["content-type"] ?? "", text: e.response.body.text },
      redirectURL: "",
      headersSize: -1,
      bodySize: e.response.body.bytes,
    },
    cache: {},
    timings: { send: 0, wait: e.durationMs, receive: 0 },
    _faultline: {
      seq: e.seq,
      fault: e.fault ?? null,
      outcome: e.verdict?.outcome ?? null,
      truncated: e.request.body.truncated || e.response.body.truncated,
      // The client went away this many ms in: the content is what it had been sent.
      clientClosedAtMs: e.response.clientClosedAtMs ?? null,
    },
  };
}
