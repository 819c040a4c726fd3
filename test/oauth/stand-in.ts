import assert from "node:assert/strict";

/**
 * An OAuthClientProvider for the official SDK clients (v1 and v2 share the shape), with the user's browser step
 * served by a stand-in: redirectToAuthorization follows the authorization URL with fetch, checks what comes back
 * (redirect to our redirect URI, same state, `iss` present as RFC 9207 asks), and keeps the callback for finishAuth.
 * Everything else is kept in memory, as a desktop client would keep it on disk.
 */
export class StandInProvider {
  readonly redirectUrl = "http://127.0.0.1:9/callback";
  readonly clientMetadata = { client_name: "faultline oauth test", redirect_uris: [this.redirectUrl], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  private client: any;
  private saved: any;
  private verifier = "";
  private discovery: any;
  private lastState = "";
  /** The query of the last redirect back to us (code, state, iss), until taken. */
  callback: URLSearchParams | undefined;
  /** Authorization URLs followed, in order (what scope each asked for is in its query). */
  readonly authorizations: URL[] = [];

  state(): string {
    this.lastState = crypto.randomUUID();
    return this.lastState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: unknown) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: unknown) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }

  async redirectToAuthorization(url: URL) {
    this.authorizations.push(url);
    const res = await fetch(url, { redirect: "manual" });
    assert.equal(res.status, 302, `the authorization server approved at once (${res.status}: ${await res.clone().text()})`);
    const location = new URL(res.headers.get("location")!);
    assert.equal(`${location.origin}${location.pathname}`, this.redirectUrl);
    assert.equal(location.searchParams.get("state"), this.lastState);
    assert.ok(location.searchParams.get("iss"), "RFC 9207: the response names its issuer");
    this.callback = location.searchParams;
  }

  /** The code of the last redirect, once. */
  takeCode(): string {
    const code = this.callback?.get("code");
    assert.ok(code, `the redirect carried a code: ${this.callback}`);
    this.callback = undefined;
    return code;
  }
}
