// The stand-in browser (as test/helpers/mcp-remote.ts): follows the redirects from argv[2] as a browser would when
// the authorization server approves at once, and appends "<status> <url>" per hop to argv[3]. Submits no forms.
import { appendFileSync } from "node:fs";
let url = process.argv[2];
for (let hop = 0; hop < 10 && url; hop++) {
  // mcp-remote opens the browser before its callback server listens (a person takes seconds to approve), so a
  // refused connection is tried again for a few seconds. And a browser tries every address "localhost" has, while
  // fetch tries only the first (::1 here) and the callback server listens on 127.0.0.1: try the IPv4 address too.
  let res;
  for (let attempt = 0; attempt < 50; attempt++) {
    res = await fetch(url, { redirect: "manual" }).catch((error) => ({ status: 0, headers: new Headers(), error }));
    if (res.status === 0 && new URL(url).hostname === "localhost") {
      const v4 = new URL(url);
      v4.hostname = "127.0.0.1";
      res = await fetch(v4, { redirect: "manual" }).catch((error) => ({ status: 0, headers: new Headers(), error }));
    }
    if (res.status !== 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  appendFileSync(process.argv[3], res.status + " " + url + "\n");
  const next = res.status >= 300 && res.status < 400 ? res.headers.get("location") : null;
  await res.body?.cancel();
  url = next ? new URL(next, url).href : undefined;
}
