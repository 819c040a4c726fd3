import { Hono } from "hono";
// Placeholder; the /classify route replaces this file.
export const classifyRoutes = new Hono<{ Bindings: Env }>();
