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
