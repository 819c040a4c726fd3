/** A parsed HTTP response: the last one in the text, with the body de-chunked when it was chunked. */
export interface HttpMessage {
  /** "1.1", "2", "3" … as written after `HTTP/`. */
  httpVersion: string;
  status: number;
  reason: string;
  /** Header names keep the case of their first occurrence; repeated headers are joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** How many responses the text held (1xx, proxy CONNECT and redirect responses come before the last one). */
  responses: number;
}

/** Why a text is not an HTTP response; `line` is 1-based when the problem sits on one line. */
export interface HttpMessageError {
  code: "empty" | "not_http_response" | "invalid_status_line" | "invalid_header";
  message: string;
  line?: number;
}

export type HttpMessageResult = { ok: true; message: HttpMessage } | { ok: false; error: HttpMessageError };

// RFC 9112 §4: status-line = HTTP-version SP status-code SP [ reason-phrase ]; curl prints
// HTTP/2 and HTTP/3 status lines as "HTTP/2 200" with no reason phrase.
const STATUS_LINE = /^HTTP\/(\d(?:\.\d)?) +(\d{3})(?: (.*))?$/;
const LOOKS_LIKE_STATUS_LINE = /^HTTP\/\S* /;
// RFC 9110 §5.1: field-name = token.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Parses a raw HTTP response as `curl -si` prints it: status line, headers, blank line, body.
 * CRLF and LF line ends are both accepted. When several responses follow one another
 * (`100 Continue`, `curl -L` redirects, a proxy's `200 Connection established`) the last one wins.
 */
export function parseHttpMessage(text: string): HttpMessageResult {
  const lines = new LineReader(withoutBom(text));
  lines.skipBlankLines();
  if (lines.done()) return fail("empty", "The input is empty: expected an HTTP response starting with a status line such as 'HTTP/1.1 200 OK'.");

  let responses = 0;
  for (;;) {
    const statusLineNumber = lines.lineNumber;
    const statusLine = lines.next() ?? "";
    const status = STATUS_LINE.exec(statusLine);
    if (!status) {
      if (responses === 0 && !LOOKS_LIKE_STATUS_LINE.test(statusLine)) {
        return fail("not_http_response", `Expected a status line such as 'HTTP/1.1 200 OK', got ${quote(statusLine)}.`, statusLineNumber);
      }
      return fail("invalid_status_line", `Invalid status line ${quote(statusLine)}: expected 'HTTP/<version> <3-digit status> [reason]'.`, statusLineNumber);
    }
    responses += 1;
    const code = Number(status[2]);
    if (code < 100 || code > 599) {
      return fail("invalid_status_line", `Status ${code} is outside 100-599.`, statusLineNumber);
    }

    const headers = readHeaders(lines);
    if ("error" in headers) return { ok: false, error: headers.error };

    // Another status line right after the header block means this response had no body
    // printed (interim 1xx, CONNECT, or a redirect curl followed): move on to the next one.
    if (lines.startsWith("HTTP/") && STATUS_LINE.test(lines.peek() ?? "")) continue;

    const rawBody = lines.rest();
    return {
      ok: true,
      message: {
        httpVersion: status[1] ?? "",
        status: code,
        reason: status[3]?.trim() ?? "",
        headers: headers.fields,
        body: isChunked(headers) ? (dechunk(rawBody) ?? rawBody) : rawBody,
        responses,
      },
    };
  }
}

/** The header fields, and their names lower-cased, in the fields' order (one field per lower-cased name). */
interface Fields {
  fields: Record<string, string>;
  names: string[];
  lowerNames: string[];
}

// Up to this many fields, a repeated name is found by comparing with each lower-cased name seen (no hashing of the
// sliced name, which costs more than a few comparisons); beyond it, through a Map, so that the work stays linear.
const LINEAR_NAMES = 24;

function readHeaders(lines: LineReader): Fields | { error: HttpMessageError } {
  const fields: Record<string, string> = {};
  const names: string[] = [];
  const lowerNames: string[] = [];
  let byLowerName: Map<string, number> | undefined;
  let last: string | undefined;
  for (;;) {
    const lineNumber = lines.lineNumber;
    const line = lines.next();
    if (line === undefined || line === "") return { fields, names, lowerNames };
    // RFC 9112 §5.2: obsolete line folding; a recipient MAY replace it with a space.
    if ((line.startsWith(" ") || line.startsWith("\t")) && last !== undefined) {
      fields[last] = `${fields[last]} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    if (!HEADER_NAME.test(name)) {
      return { error: { code: "invalid_header", message: `Invalid header line ${quote(line)}: expected 'Name: value'.`, line: lineNumber } };
    }
    const value = line.slice(colon + 1).trim();
    const lower = name.toLowerCase();
    const index = byLowerName === undefined ? lowerNames.indexOf(lower) : (byLowerName.get(lower) ?? -1);
    if (index < 0) {
      if (byLowerName === undefined && names.length === LINEAR_NAMES) byLowerName = new Map(lowerNames.map((n, i) => [n, i]));
      byLowerName?.set(lower, names.length);
      names.push(name);
      lowerNames.push(lower);
      fields[name] = value;
      last = name;
    } else {
      const known = names[index] ?? name;
      fields[known] = `${fields[known]}, ${value}`;
      last = known;
    }
  }
}

/** The value of the header whose lower-cased name is `lower`, if there is one. */
function field(headers: Fields, lower: string): string | undefined {
  const index = headers.lowerNames.indexOf(lower);
  return index < 0 ? undefined : headers.fields[headers.names[index] ?? ""];
}

function isChunked(headers: Fields): boolean {
  const value = field(headers, "transfer-encoding");
  return value !== undefined && /(?:^|,)\s*chunked\s*$/i.test(value);
}

/**
 * Decodes a chunked body (RFC 9112 §7.1), or returns undefined when the text is not chunked
 * framing. curl decodes chunked bodies itself but still prints the header, so a body that does
 * not parse as chunks is taken as already decoded. Sizes count UTF-8 bytes; LF-only line ends
 * (a capture saved through an editor) are accepted.
 */
function dechunk(body: string): string | undefined {
  // A chunked body starts with a size line; curl's decoded body (JSON, SSE) does not, and is not encoded to find that
  // out. The text before the first LF is the same read from the string as from its UTF-8 bytes.
  if (!isHexDigit(body.charCodeAt(0))) return undefined;
  const firstLineEnd = body.indexOf("\n");
  if (firstLineEnd < 0 || !CHUNK_SIZE_LINE.test(body.slice(0, firstLineEnd).replace(/\r$/, ""))) return undefined;
  const bytes = new TextEncoder().encode(body);
  const out: Uint8Array[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf(0x0a, at);
    if (lineEnd < 0) return undefined;
    const sizeLine = new TextDecoder().decode(bytes.subarray(at, lineEnd)).replace(/\r$/, "");
    const size = CHUNK_SIZE_LINE.exec(sizeLine);
    if (!size) return undefined;
    const length = Number.parseInt(size[1] ?? "", 16);
    at = lineEnd + 1;
    if (length === 0) break;
    if (at + length > bytes.length) return undefined;
    out.push(bytes.subarray(at, at + length));
    at += length;
    if (bytes[at] === 0x0d) at += 1;
    if (bytes[at] !== 0x0a) return undefined;
    at += 1;
  }
  // Trailer fields may follow the last chunk; they carry nothing the classifier reads.
  const joined = new Uint8Array(out.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of out) {
    joined.set(part, offset);
    offset += part.length;
  }
  return new TextDecoder().decode(joined);
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const CHUNK_SIZE_LINE = /^([0-9A-Fa-f]{1,8})[ \t]*(?:;.*)?$/;

function isHexDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/** Reads lines ending in LF or CRLF while keeping the offset, so the body is returned untouched. */
class LineReader {
  private readonly text: string;
  private offset = 0;
  lineNumber = 1;

  constructor(text: string) {
    this.text = text;
  }

  done(): boolean {
    return this.offset >= this.text.length;
  }

  /** True when the next line starts with `prefix` (without slicing the line, which may be a whole body). */
  startsWith(prefix: string): boolean {
    return this.text.startsWith(prefix, this.offset);
  }

  peek(): string | undefined {
    if (this.done()) return undefined;
    return this.lineTo(this.lineEnd());
  }

  next(): string | undefined {
    if (this.done()) return undefined;
    const end = this.lineEnd();
    const line = this.lineTo(end);
    this.offset = end < this.text.length ? end + 1 : end;
    this.lineNumber += 1;
    return line;
  }

  skipBlankLines(): void {
    while (!this.done() && this.peek()?.trim() === "") this.next();
  }

  rest(): string {
    const rest = this.text.slice(this.offset);
    this.offset = this.text.length;
    return rest;
  }

  /** Where the current line's LF is, or the text's length when it is the last line. */
  private lineEnd(): number {
    const end = this.text.indexOf("\n", this.offset);
    return end < 0 ? this.text.length : end;
  }

  /** The current line up to `end`, without the CR of a CRLF. */
  private lineTo(end: number): string {
    const last = end > this.offset && this.text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    return this.text.slice(this.offset, last);
  }
}

function fail(code: HttpMessageError["code"], message: string, line?: number): HttpMessageResult {
  return { ok: false, error: { code, message, ...(line === undefined ? {} : { line }) } };
}

function quote(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}

/** A parsed HTTP request: what the client sent beside the response it got. */
export interface HttpRequestMessage {
  method: string;
  target: string;
  /** Header names keep the case of their first occurrence; repeated headers are joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

export type HttpRequestResult = { ok: true; request: HttpRequestMessage } | { ok: false; error: HttpMessageError };

// RFC 9112 §3: request-line = method SP request-target SP HTTP-version.
const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) +(\S+) +HTTP\/\d(?:\.\d)?$/;

/** True when the text starts with a request line (`POST /mcp HTTP/1.1`), as a raw request or an exchange does. */
export function startsWithRequestLine(text: string): boolean {
  const first = /^\uFEFF?\s*([^\r\n]*)/.exec(text)?.[1] ?? "";
  return REQUEST_LINE.test(first);
}

/**
 * Parses a raw request (request line, headers, blank line, body). The body ends after Content-Length bytes when the
 * header says so, else at the first line that is an HTTP status line (a request followed by its response) or at the
 * end. Returns the request and the text after it.
 */
export function parseHttpRequest(text: string): { ok: true; request: HttpRequestMessage; rest: string } | { ok: false; error: HttpMessageError } {
  const lines = new LineReader(withoutBom(text));
  lines.skipBlankLines();
  if (lines.done()) return { ok: false, error: { code: "empty", message: "The request is empty: expected a request line such as 'POST /mcp HTTP/1.1'." } };
  const lineNumber = lines.lineNumber;
  const first = lines.next() ?? "";
  const match = REQUEST_LINE.exec(first);
  if (!match) return { ok: false, error: { code: "invalid_status_line", message: `Expected a request line such as 'POST /mcp HTTP/1.1', got ${quote(first)}.`, line: lineNumber } };
  const headers = readHeaders(lines);
  if ("error" in headers) return { ok: false, error: headers.error };
  const rest = lines.rest();
  const length = contentLength(headers);
  let body: string;
  let after: string;
  if (length !== undefined) {
    const bytes = new TextEncoder().encode(rest);
    body = new TextDecoder().decode(bytes.subarray(0, length));
    after = new TextDecoder().decode(bytes.subarray(length));
  } else {
    const status = /(?:^|\n)HTTP\/\d(?:\.\d)? \d{3}/.exec(rest);
    body = status === null ? rest : rest.slice(0, status.index);
    after = status === null ? "" : rest.slice(status.index);
  }
  return { ok: true, request: { method: match[1] ?? "", target: match[2] ?? "", headers: headers.fields, body: body.replace(/\r?\n$/, "") }, rest: after.replace(/^\r?\n/, "") };
}

function contentLength(headers: Fields): number | undefined {
  const value = field(headers, "content-length")?.trim();
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** True when the text is `curl -v` output: request lines prefixed "> ", response header lines "< ", notes "* ". */
export function isCurlVerbose(text: string): boolean {
  // A "> METHOD target HTTP/" line is itself a "> " line, so that one search decides. It looks only where "> " starts a
  // line (after LF, CR, U+2028 or U+2029, as a multiline `^` does), so a body without "> " is read once, by indexOf.
  for (let at = text.indexOf("> "); at >= 0; at = text.indexOf("> ", at + 1)) {
    if (at > 0 && !isLineTerminator(text.charCodeAt(at - 1))) continue;
    CURL_REQUEST_LINE.lastIndex = at;
    if (CURL_REQUEST_LINE.test(text)) return true;
  }
  return false;
}

const CURL_REQUEST_LINE = /> [A-Z]+ \S+ HTTP\//y;

function isLineTerminator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/**
 * Splits `curl -v` output (stderr and stdout together) into the request's text and the response's text: "> " lines
 * are the request, "< " lines the response head, "* " and "{ [n bytes data]" lines curl's notes, and the other lines
 * after the response head its body. curl -v does not print the request body.
 */
export function splitCurlVerbose(text: string): { request: string; response: string } {
  const request: string[] = [];
  const head: string[] = [];
  const body: string[] = [];
  for (const line of text.replace(/^\uFEFF/, "").split(/\r?\n/)) {
    if (line.startsWith("> ") || line === ">") request.push(line.slice(2));
    else if (line.startsWith("< ") || line === "<") head.push(line.slice(2));
    else if (line.startsWith("* ") || /^[{}] \[\d+ bytes data\]$/.test(line)) continue;
    else if (head.length > 0) body.push(line);
  }
  return { request: request.join("\r\n"), response: `${head.join("\r\n")}\r\n${body.join("\n")}` };
}
