#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { classify, type Verdict } from "../src/classify/index.ts";
import { exchangeFromRawHttp, looksLikeRawHttp, parseClassifyInput, parseJsonText, type ClassifyInput, type InputError } from "../src/classify/input.ts";

const USAGE = `Usage: faultline classify [options] [FILE|-]

Classifies MCP HTTP responses. FILE (or stdin when FILE is "-" or absent and
stdin is not a terminal) holds one of:
  - a JSON exchange: {status, headers?, body, expectedId?, method?, protocolVersion?}
    or {request?: {headers?, body?}, response: {status, headers?, body}, ...}
  - a JSON array of exchanges
  - a HAR 1.2 document ({"log": {"entries": [...]}}); its JSON-RPC entries are classified
  - a raw HTTP response as \`curl -si\` prints it (text starting with "HTTP/")

Options:
  --json                      print the verdict(s) as JSON
  --expected-id ID            raw HTTP only: the JSON-RPC id the response must carry
                              (1 is the integer 1, '"1"' is the string "1")
  --method METHOD             raw HTTP only: the request's JSON-RPC method (default tools/call)
  --protocol-version VERSION  raw HTTP only: the negotiated MCP protocol version
  -h, --help                  print this help

Exit status: 0 when every outcome is TOOL_SUCCESS or NOTIFICATION_ACCEPTED,
1 when any outcome is not, 2 for usage or input errors.
`;

const SUCCESS = new Set(["TOOL_SUCCESS", "NOTIFICATION_ACCEPTED"]);

class UsageError extends Error {}

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean" },
        "expected-id": { type: "string" },
        method: { type: "string" },
        "protocol-version": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [command, file, ...extra] = positionals;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command !== "classify") {
    throw new UsageError(command === undefined ? "missing command: classify" : `unknown command: ${command}`);
  }
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`);

  const text = readInput(file);
  const rawHttpOptions = { expectedId: values["expected-id"], method: values.method, protocolVersion: values["protocol-version"] };
  const input = toInput(text, rawHttpOptions);
  const now = Date.now();

  let verdicts: Array<{ label: string | undefined; verdict: Verdict }>;
  let json: unknown;
  switch (input.kind) {
    case "single": {
      const verdict = classify(input.exchange, { now });
      verdicts = [{ label: undefined, verdict }];
      json = verdict;
      break;
    }
    case "batch":
      verdicts = input.exchanges.map((exchange, index) => ({ label: `[${index}]`, verdict: classify(exchange, { now }) }));
      json = verdicts.map(({ verdict }) => verdict);
      break;
    case "har": {
      const entries = input.entries.map(({ index, method, id, exchange }) => ({ index, method, id, verdict: classify(exchange, { now }) }));
      verdicts = entries.map(({ index, method, id, verdict }) => ({ label: `entry ${index}: ${method}${id === null ? "" : ` id=${JSON.stringify(id)}`}`, verdict }));
      json = input.skipped.length > 0 ? { entries, skipped: input.skipped } : { entries };
      if (entries.length === 0) process.stderr.write("faultline: the HAR holds no entry whose request body is a JSON-RPC message\n");
      for (const skip of input.skipped) process.stderr.write(`faultline: skipped HAR entry ${skip.index}: ${skip.reason}\n`);
      break;
    }
  }

  process.stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : summarize(verdicts));
  return verdicts.every(({ verdict }) => SUCCESS.has(verdict.outcome)) ? 0 : 1;
}

function readInput(file: string | undefined): string {
  if (file === undefined && process.stdin.isTTY) throw new UsageError("no input: give a FILE, or pipe the input into stdin");
  const path = file === undefined || file === "-" ? 0 : file;
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
    throw new UsageError(`cannot read ${path === 0 ? "stdin" : path}: ${reason}`);
  }
}

function toInput(text: string, rawHttpOptions: { expectedId?: string; method?: string; protocolVersion?: string }): ClassifyInput {
  if (looksLikeRawHttp(text)) {
    const exchange = exchangeFromRawHttp(text, rawHttpOptions, (name) => `--${kebab(name)}`);
    if (!exchange.ok) throw inputError(exchange.error);
    return { kind: "single", exchange: exchange.value };
  }
  const given = Object.entries({ "--expected-id": rawHttpOptions.expectedId, "--method": rawHttpOptions.method, "--protocol-version": rawHttpOptions.protocolVersion })
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
  if (given.length > 0) {
    throw new UsageError(`${given.join(", ")} apply only to a raw HTTP response; put expectedId, method and protocolVersion in the JSON instead`);
  }
  const json = parseJsonText(text);
  if (!json.ok) throw inputError(json.error);
  const input = parseClassifyInput(json.value);
  if (!input.ok) throw inputError(input.error);
  return input.value;
}

function inputError(error: InputError): UsageError {
  const lines = error.issues.map((issue) => `  ${issue.path}: ${issue.message} (${issue.rule})`);
  return new UsageError(`invalid input:\n${lines.join("\n")}`);
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function summarize(verdicts: Array<{ label: string | undefined; verdict: Verdict }>): string {
  return verdicts
    .map(({ label, verdict }) => {
      const head = [verdict.outcome, `layer=${verdict.layer}`];
      if (verdict.status !== undefined) head.push(`status=${verdict.status}`);
      if (verdict.code !== undefined) head.push(`code=${verdict.code}`);
      const retry = verdict.retry;
      const lines = [
        `${label === undefined ? "" : `${label}  `}${head.join("  ")}`,
        `  retry: ${retry.decision}${retry.afterMs === undefined ? "" : ` after ${retry.afterMs} ms`}: ${retry.reason}`,
        ...verdict.findings.map((finding) => `  ${finding.severity.padEnd(7)} ${finding.code}: ${finding.message}`),
      ];
      return `${lines.join("\n")}\n`;
    })
    .join("\n");
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) {
    process.stderr.write(`faultline: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`faultline: ${error.message}\n`);
    if (/^(missing|unknown) command|^Unknown option|^unexpected/.test(error.message)) process.stderr.write("Run 'faultline --help' for usage.\n");
    process.exitCode = 2;
  }
}
