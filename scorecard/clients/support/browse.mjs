// The stand-in browser's one behaviour, shared by the $BROWSER script (browser.mjs, for mcp-remote) and the OAuth
// client provider an adapter hands its library (oauth.mjs): follow the redirects from a URL as a browser would when
// the authorization server approves at once, reporting "<status> <url>" per hop. It submits no forms.

/** Follows `start`'s redirects (at most 10 hops), calling `onHop(status, url)` for each; resolves with the last URL. */
export async function browse(start, onHop) {
  let url = start;
  let last = start;
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
    onHop(res.status, url);
    last = url;
    const next = res.status >= 300 && res.status < 400 ? res.headers.get("location") : null;
    await res.body?.cancel();
    url = next ? new URL(next, url).href : undefined;
  }
  return last;
}
