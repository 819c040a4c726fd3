import { Hono } from "hono";
import { catalogue } from "../scenarios/index.ts";

export const scenarioRoutes = new Hono<{ Bindings: Env }>().get("/", (c) => c.json({ scenarios: catalogue() }));
