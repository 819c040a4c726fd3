// The platform's floor for `npm run bench`: a bare Worker whose one route sends the request to a Durable Object that
// writes one row to its SQLite and answers. No framework, no parsing beyond reading the body: what workerd itself costs.
import { DurableObject } from "cloudflare:workers";

export class Floor extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS rows (seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, body TEXT NOT NULL)");
  }

  async fetch(request) {
    const body = await request.text();
    this.ctx.storage.sql.exec("INSERT INTO rows (at, body) VALUES (?, ?)", Date.now(), body);
    return new Response('{"ok":true}', { headers: { "content-type": "application/json" } });
  }
}

export default {
  fetch(request, env) {
    if (new URL(request.url).pathname !== "/write") return new Response("not found", { status: 404 });
    return env.FLOOR.get(env.FLOOR.idFromName("floor")).fetch(request);
  },
};
