// A client that calls place_order once and stops, whatever the answer: it never retries.
import { post } from "./mcp.ts";

const response = await post(1, "tools/call", { name: "place_order", arguments: { item: "book", quantity: 1 } });
await response.arrayBuffer();
process.stderr.write(`calls-once: status ${response.status}\n`);
