import { readFileSync } from "node:fs";
// Not yet on the classifier's public surface (src/classify/index.ts): the input adapters.
import { exchangeFromRawHttp, looksLikeRawHttp, parseClassifyInput, parseJsonText, sseBodyAlone, type ClassifyInput, type InputError } from "../classify/index.ts";
import { systemReason, UsageError } from "./errors.ts";

/** The options that describe the request behind a raw HTTP response (JSON input carries them itself). */
export interface RawHttpOptions {
  expectedId?: string | undefined;
  method?: string | undefined;
  protocolVersion?: string | undefined;
  httpMethod?: string | undefined;
  sessionId?: string | undefined;
  /** The request's text (raw, or as `curl -v` prints it), read from --request FILE. */
  request?: string | undefined;
}

const RAW_HTTP_HINT =
  "hint: an HTTP response must be given as `curl -si URL …` prints it, starting with its status line\n" +
  "      (HTTP/1.1 200 OK); other input is JSON (see faultline classify --help)";

/**
 * Reads FILE, or stdin for "-" or no FILE; stdin only when it is not a terminal, since nobody types a capture. Stdin is
 * read as a stream: a synchronous read of a pipe that the writer left non-blocking fails with EAGAIN whenever the data
 * is not there yet (as with `curl … | faultline classify` on a busy machine).
 */
export async function readInput(file: string | undefined, stdin: NodeJS.ReadStream): Promise<string> {
  if (file === undefined && stdin.isTTY) throw new UsageError("no input: give a FILE, or pipe the input into stdin", { suggestHelp: true });
  const fromStdin = file === undefined || file === "-";
  try {
    if (!fromStdin) return readFileSync(file, "utf8");
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
    return Buffer.concat(chunks).toString("utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${fromStdin ? "stdin" : file}: ${systemReason(error)}`);
  }
}

/** Turns the text into exchanges: raw HTTP when it starts with `HTTP/`, a request line or `curl -v` notes, JSON otherwise. */
export function toInput(text: string, options: RawHttpOptions): ClassifyInput {
  if (looksLikeRawHttp(text)) {
    const { request, ...params } = options;
    const exchange = exchangeFromRawHttp(text, params, (name) => `--${kebab(name)}`, request);
    if (!exchange.ok) throw inputError(exchange.error);
    return { kind: "single", exchange: exchange.value };
  }
  const given = Object.entries({
    "--expected-id": options.expectedId,
    "--method": options.method,
    "--protocol-version": options.protocolVersion,
    "--http-method": options.httpMethod,
    "--session-id": options.sessionId,
    "--request": options.request,
  })
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
  if (given.length > 0) {
    const verb = given.length === 1 ? "applies" : "apply";
    throw new UsageError(`${given.join(", ")} ${verb} only to a raw HTTP response; put expectedId, method, protocolVersion and the request ({method, headers, body}) in the JSON instead`);
  }
  const json = parseJsonText(text);
  if (!json.ok) {
    const bodyAlone = sseBodyAlone(text);
    throw bodyAlone === undefined ? inputError(json.error, RAW_HTTP_HINT) : inputError(bodyAlone);
  }
  const input = parseClassifyInput(json.value);
  if (!input.ok) throw inputError(input.error);
  return input.value;
}

function inputError(error: InputError, hint?: string): UsageError {
  const lines = error.issues.map((issue) => `  ${issue.path}: ${issue.message} (${issue.rule})`);
  return new UsageError(`invalid input:\n${lines.join("\n")}${hint === undefined ? "" : `\n${hint}`}`);
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
