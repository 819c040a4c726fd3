import { app } from "./app.ts";

/** The Worker entry (wrangler.toml `main`): the app as the fetch handler, and the Durable Object classes it binds. */
export { SessionObject } from "./session/session-object.ts";
export { SessionIndex } from "./session/session-index.ts";

export default app;
