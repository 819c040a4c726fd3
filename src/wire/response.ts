/**
 * HTTP answers in MCP's shapes. This module sits below both the request pipeline and the fault interpreter
 * (src/faults/perform.ts): each answers through it, neither through the other.
 */

export const JSON_HEADERS = { "content-type": "application/json" } as const;

/** Texts of the responses made here from a string, so the journal takes the text instead of teeing and reading the body. */
const texts = new WeakMap<Response, string>();

/** A response whose whole body is this text, known without reading it (see bodyText). */
export function textResponse(text: string, init: ResponseInit): Response {
  const response = new Response(text, init);
  texts.set(response, text);
  return response;
}

/** The text a response was made from by textResponse; undefined for a streamed or foreign body. */
export function bodyText(response: Response): string | undefined {
  return texts.get(response);
}

/** One JSON body; used for every JSON answer of the MCP endpoint, faulted or not. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return textResponse(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * Headers every answer on an MCP endpoint carries, whatever its source (the built-in server, an upstream, a
 * recording, a fault). An MCP URL opened in a browser must not become a page of Faultline's origin: a fault's HTML
 * error page or an upstream's own page is shown sandboxed (an opaque origin, no script, no subresource, no framing),
 * and no content type is sniffed into another. Cookies are never set on Faultline's origin by an answer.
 */
export const MCP_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "sandbox; default-src 'none'; frame-ancestors 'none'",
};

/**
 * The answer with the MCP answer headers and no cookie. Set in place where the answer is built (the session's object,
 * whose responses are its own), so the Worker passes it on without a copy; a response with immutable headers (one
 * from fetch) is copied, its body stream passed on, not read.
 */
export function asMcpAnswer(response: Response): Response {
  const mark = (headers: Headers) => {
    headers.delete("set-cookie");
    for (const [name, value] of Object.entries(MCP_ANSWER_HEADERS)) headers.set(name, value);
  };
  try {
    mark(response.headers);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    mark(copy.headers);
    return copy;
  }
}
