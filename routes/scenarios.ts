import { Hono } from "hono";
import { catalogue } from "../scenarios/index.ts";

// The catalogue is fixed for the life of the Worker, and building its JSON Schemas took about 80% of each request's
// CPU (bench/RESULTS.md, profile of GET /api/scenarios): build the body once, on first use.
let body: string | undefined;

export const scenarioRoutes = new Hono<{ Bindings: Env }>().get("/", (c) => c.body((body ??= JSON.stringify({ scenarios: catalogue() })), 200, { "content-type": "application/json" }));
