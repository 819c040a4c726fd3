import { parseArgs } from "node:util";
import { classify, OUTCOMES } from "../classify/index.ts";
import { summarize, type LabelledVerdict } from "./classify-summary.ts";
import { readInput, toInput } from "./classify-input.ts";
import { EXIT, UsageError } from "./errors.ts";
import { outputWidth } from "./wrap.ts";

/** The outcomes the classifier's table counts as success: the exit status is 0 when every verdict has one. */
const SUCCESS: ReadonlySet<string> = new Set(Object.entries(OUTCOMES).filter(([, traits]) => traits.success).map(([outcome]) => outcome));

export const CLASSIFY_USAGE = `Usage: faultline classify [options] [FILE|-]

Classifies MCP HTTP responses. FILE (or stdin when FILE is "-" or absent and
stdin is not a terminal) holds one of:
  - a JSON exchange: {status, headers?, body, expectedId?, method?, protocolVersion?}
    or {request?: {headers?, body?}, response: {status, headers?, body}, ...}
  - a JSON array of exchanges
  - a HAR 1.2 document ({"log": {"entries": [...]}}); its JSON-RPC entries are classified
  - a raw HTTP response as \`curl -si\` prints it (text starting with "HTTP/"),
    optionally after the raw request it answers, or \`curl -v\` output

Options:
  --json                      print the verdict(s) as JSON
  --expected-id ID            raw HTTP only: the JSON-RPC id the response must carry
                              (1 is the integer 1, '"1"' is the string "1")
  --method METHOD             raw HTTP only: the request's JSON-RPC method (default tools/call)
  --protocol-version VERSION  raw HTTP only: the negotiated MCP protocol version
  --request FILE              raw HTTP only: the request the response answers, raw
                              (POST /mcp HTTP/1.1, headers, body) or as \`curl -v\` prints it
  --http-method METHOD        raw HTTP only: the request's HTTP method (GET, POST, DELETE)
  --session-id ID             raw HTTP only: the request's Mcp-Session-Id
  -h, --help                  print this help

Exit status: 0 when every outcome is ${[...SUCCESS].join(" or ")},
1 when any outcome is not, 2 for usage or input errors.
`;

/** `faultline classify`: prints a verdict per exchange; the exit status says whether all of them succeeded. */
export async function classifyCommand(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        json: { type: "boolean" },
        "expected-id": { type: "string" },
        method: { type: "string" },
        "protocol-version": { type: "string" },
        request: { type: "string" },
        "http-method": { type: "string" },
        "session-id": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), { suggestHelp: true });
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(CLASSIFY_USAGE);
    return EXIT.ok;
  }
  const [file, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`, { suggestHelp: true });

  const text = await readInput(file, process.stdin);
  const request = values.request === undefined ? undefined : await readInput(values.request, process.stdin);
  const input = toInput(text, {
    expectedId: values["expected-id"],
    method: values.method,
    protocolVersion: values["protocol-version"],
    httpMethod: values["http-method"],
    sessionId: values["session-id"],
    request,
  });
  const now = Date.now();

  let verdicts: LabelledVerdict[];
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

  process.stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : summarize(verdicts, outputWidth()));
  return verdicts.every(({ verdict }) => SUCCESS.has(verdict.outcome)) ? EXIT.ok : EXIT.failed;
}
