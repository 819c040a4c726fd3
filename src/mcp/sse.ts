/** Encodes one SSE event carrying a JSON-RPC message; `id` and `retry` only where the era allows them. */
export function sseEvent(data: unknown, options: { id?: string; retry?: number; event?: string } = {}): string {
  let out = "";
  if (options.id !== undefined) out += `id: ${options.id}\n`;
  if (options.retry !== undefined) out += `retry: ${options.retry}\n`;
  out += `event: ${options.event ?? "message"}\n`;
  out += `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
  return out;
}

/** A priming event: an event id with empty data, as 2025-11-25 servers SHOULD send first. */
export function primingEvent(id: string, retry?: number): string {
  return `id: ${id}\n${retry === undefined ? "" : `retry: ${retry}\n`}data: \n\n`;
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
} as const;
