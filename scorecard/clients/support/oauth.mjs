// The OAuth client an application hands its MCP library (the SDKs' OAuthClientProvider, which @ai-sdk/mcp,
// @langchain/mcp-adapters, @mastra/mcp and @openai/agents take too): client information, tokens and the PKCE verifier
// kept in memory, dynamic client registration metadata for a public client, and a loopback redirect URL served by a
// callback listener of its own. redirectToAuthorization opens the stand-in browser (browse.mjs), which follows the
// authorization server's redirects to that listener, so the authorization code is in hand when the library's connect
// fails for want of it. Nothing here retries: the library decides when to register, authorize and refresh.
import { createServer } from "node:http";
import { browse } from "./browse.mjs";

/** The redirect's query (code, state, iss or error) once the browser has brought it back, else undefined. */
function callbackListener() {
  let delivered;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") return void res.writeHead(404).end();
    delivered = url.searchParams;
    res.writeHead(200, { "content-type": "text/plain" }).end("Authorized; you can close this window.\n");
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      // The listener never keeps the application alive.
      server.unref();
      resolve({ url: `http://127.0.0.1:${server.address().port}/callback`, take: () => [delivered, (delivered = undefined)][0] });
    }),
  );
}

/**
 * A fresh OAuth client for `name`: `provider` for the library, and `takeCallback()`, the redirect's query once the
 * stand-in browser delivered it (each delivery is taken once).
 */
export async function oauthClient(name, log) {
  const listener = await callbackListener();
  const store = {};
  const provider = {
    get redirectUrl() {
      return listener.url;
    },
    get clientMetadata() {
      // A public client (token_endpoint_auth_method none), as a native application registers (RFC 8252 §8.4).
      return { client_name: name, redirect_uris: [listener.url], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
    },
    clientInformation: () => store.client,
    saveClientInformation: (client) => void (store.client = client),
    tokens: () => store.tokens,
    saveTokens: (tokens) => void (store.tokens = tokens),
    saveCodeVerifier: (verifier) => void (store.verifier = verifier),
    codeVerifier: () => {
      if (!store.verifier) throw new Error("no PKCE code verifier was saved");
      return store.verifier;
    },
    // SDK v2 binds the code exchange to the authorization server that the discovery found (SEP-2352), kept here.
    saveDiscoveryState: (state) => void (store.discovery = state),
    discoveryState: () => store.discovery,
    invalidateCredentials: (scope) => {
      if (scope === "all" || scope === "client") store.client = undefined;
      if (scope === "all" || scope === "tokens") store.tokens = undefined;
      if (scope === "all" || scope === "verifier") store.verifier = undefined;
      if (scope === "all" || scope === "discovery") store.discovery = undefined;
    },
    redirectToAuthorization: async (url) => {
      log(`oauth: the library sends the user to ${new URL(url).pathname}; the stand-in browser follows`);
      await browse(url.href ?? String(url), (status, hop) => log(`oauth: browser ${status} ${new URL(hop).origin}${new URL(hop).pathname}`));
    },
  };
  return { provider, takeCallback: listener.take };
}
