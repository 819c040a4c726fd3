// The stand-in browser as a program, for $BROWSER (as test/helpers/mcp-remote.ts): follows the redirects from argv[2]
// (browse.mjs) and appends "<status> <url>" per hop to argv[3].
import { appendFileSync } from "node:fs";
import { browse } from "./browse.mjs";

await browse(process.argv[2], (status, url) => appendFileSync(process.argv[3], `${status} ${url}\n`));
