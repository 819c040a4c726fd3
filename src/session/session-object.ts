import { DurableObject } from "cloudflare:workers";

/** One Faultline session: its scenario, counters and MCP state, in SQLite. */
export class SessionObject extends DurableObject<Env> {}
