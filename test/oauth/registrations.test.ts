import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { MAX_CLIENTS, type OAuthSql, OAuthStore } from "../../src/oauth/store.ts";
import { migratedSqlOn } from "../helpers/node-sql.ts";
import { createSession, useServer } from "../helpers/server.ts";
import { authorizeRequest, issuerOf, pkce, REDIRECT, registerClient, tokenRequest } from "./flow.ts";

// Registrations are bounded (MAX_CLIENTS per session) without letting anonymous registrations push out a client that
// has been used: over the real server for the finding, and on the store (node:sqlite) for the order of forgetting.
const server = useServer();

/** A store on a fresh in-memory database (after `setup`, an older layout), migrated as a session's is when it wakes. */
function memoryStore(setup = "") {
  const db = new DatabaseSync(":memory:");
  if (setup) db.exec(setup);
  return { db, store: new OAuthStore(migratedSqlOn(db) as unknown as OAuthSql) };
}
const client = (clientId: string) => ({ clientId, redirectUris: [REDIRECT], via: "dcr" as const });

test(`${MAX_CLIENTS} anonymous registrations do not push out a client that got a token; they push out the oldest never-used one`, { timeout: 60_000 }, async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const used = await registerClient(issuer);
  const { verifier, challenge } = pkce();
  const { query } = await authorizeRequest(issuer, { clientId: used, challenge, resource: mcpUrl });
  const grant = await tokenRequest(issuer, { grant_type: "authorization_code", code: query!.get("code")!, code_verifier: verifier, client_id: used, redirect_uri: REDIRECT, resource: mcpUrl });
  assert.equal(grant.status, 200);
  const idle = await registerClient(issuer);
  for (let i = 0; i < MAX_CLIENTS; i++) await registerClient(issuer);
  const again = await authorizeRequest(issuer, { clientId: used, challenge: pkce().challenge, resource: mcpUrl });
  assert.equal(again.res.status, 302, "the used client is still registered");
  assert.ok(again.query?.get("code"));
  const forgotten = await authorizeRequest(issuer, { clientId: idle, challenge: pkce().challenge, resource: mcpUrl });
  assert.equal(forgotten.res.status, 400, "the never-used client was forgotten to keep the bound");
  assert.equal(((await forgotten.res.json()) as { error: string }).error, "invalid_client");
});

test("the store keeps at most MAX_CLIENTS: never-used clients go first, oldest first, then the least recently used", () => {
  const { store } = memoryStore();
  for (let i = 0; i < MAX_CLIENTS; i++) {
    store.saveClient(client(`c${i}`), 1000 + i);
    store.markClientUsed(`c${i}`, 5000 + ((i * 7) % MAX_CLIENTS));
  }
  // Every client is used: the one registering goes in and the least recently used (c0, used at 5000) goes out.
  store.saveClient(client("new1"), 9000);
  assert.equal(store.client("c0"), undefined);
  assert.ok(store.client("new1"), "the client being registered is never the one forgotten");
  // new1 never got a token: the next registration forgets it rather than any used client.
  store.saveClient(client("new2"), 9001);
  assert.equal(store.client("new1"), undefined);
  assert.ok(store.client("c143"), "c143 (used at 5001) stays while a never-used client can go");
  // Once new2 is used too, the least recently used goes again: c143 (i * 7 % 200 = 1).
  store.markClientUsed("new2", 9500);
  store.saveClient(client("new3"), 9002);
  assert.equal(store.client("c143"), undefined);
  assert.ok(store.client("new2") && store.client("new3") && store.client("c1"));
});

test("a client metadata document fetched again keeps its last use, so a refetch does not make it evictable first", () => {
  const { store } = memoryStore();
  store.saveClient({ clientId: "https://app.example/client.json", redirectUris: [REDIRECT], via: "cimd" }, 1000);
  store.markClientUsed("https://app.example/client.json", 2000);
  store.saveClient({ clientId: "https://app.example/client.json", redirectUris: [REDIRECT], via: "cimd" }, 3000);
  for (let i = 0; i < MAX_CLIENTS; i++) store.saveClient(client(`anon${i}`), 4000 + i);
  assert.ok(store.client("https://app.example/client.json"));
});

test("a session stored before clients had a last use gains the column when it wakes, and its clients count as never used", () => {
  const { db, store } = memoryStore(
    "CREATE TABLE config (k TEXT PRIMARY KEY, v TEXT NOT NULL); CREATE TABLE oauth_clients (client_id TEXT PRIMARY KEY, redirect_uris TEXT NOT NULL, client_name TEXT, via TEXT NOT NULL, created_at INTEGER NOT NULL);" +
      `INSERT INTO oauth_clients VALUES ('old', '["${REDIRECT}"]', NULL, 'dcr', 1);`,
  );
  assert.deepEqual(store.client("old")?.redirectUris, [REDIRECT]);
  const columns = (db.prepare("PRAGMA table_info(oauth_clients)").all() as Array<{ name: string }>).map((c) => c.name);
  assert.ok(columns.includes("used_at"));
  assert.equal((db.prepare("SELECT used_at FROM oauth_clients WHERE client_id = 'old'").get() as { used_at: number | null }).used_at, null);
});
