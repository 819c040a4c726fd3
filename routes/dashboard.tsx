import { Hono } from "hono";
import { catalogue } from "../scenarios/index.ts";
import { assetEtag, ASSETS } from "../src/dashboard/assets.ts";
import { ClassifyPage } from "../src/dashboard/classify-page.tsx";
import { HomePage, homeListing } from "../src/dashboard/home-page.tsx";
import { NotFoundPage, SignedIn } from "../src/dashboard/layout.tsx";
import { signedInAs } from "../src/access/caller.ts";
import { securityHeaders } from "../src/dashboard/security.ts";
import { SessionPage } from "../src/dashboard/session-page.tsx";
import { mcpUrl } from "../src/base/capability-url.ts";
import { sessionStub } from "../src/session/stubs.ts";
import { publicOrigin } from "../src/base/public-origin.ts";


/** The dashboard: server-rendered pages at /, /sessions/{id} and /classify, and their scripts and styles under /assets/. */
export const dashboardRoutes = new Hono<{ Bindings: Env }>()
  .get("/", securityHeaders, async (c) => {
    const listing = await homeListing(c.env, publicOrigin(c.req.raw, c.env), c.req.query("cursor"));
    return c.html(<SignedIn.Provider value={await signedInAs(c)}><HomePage scenarios={catalogue()} listing={listing} /></SignedIn.Provider>);
  })
  .get("/sessions/:id", securityHeaders, async (c) => {
    const id = c.req.param("id");
    const stub = sessionStub(c.env, id);
    const view = await stub.view();
    const role = await signedInAs(c);
    if (!view) return c.html(<SignedIn.Provider value={role}><NotFoundPage what={`There is no session '${id}'. It may have been deleted.`} /></SignedIn.Provider>, 404);
    const origin = publicOrigin(c.req.raw, c.env);
    const hasEntries = ((await stub.journalPage({ limit: 1, order: "desc" }))?.entries.length ?? 0) > 0;
    const page = <SessionPage session={view} mcpUrl={await mcpUrl(c.env, origin, id)} origin={origin} scenarios={catalogue()} hasEntries={hasEntries} />;
    return c.html(<SignedIn.Provider value={role}>{page}</SignedIn.Provider>);
  })
  .get("/classify", securityHeaders, async (c) => c.html(<SignedIn.Provider value={await signedInAs(c)}><ClassifyPage origin={publicOrigin(c.req.raw, c.env)} /></SignedIn.Provider>))
  .get("/assets/:name", securityHeaders, (c) => {
    const asset = ASSETS.get(c.req.param("name"));
    if (!asset) return c.text("Not found", 404);
    const etag = assetEtag(asset);
    const headers = { "content-type": asset.contentType, etag, "cache-control": "no-cache" };
    if (c.req.header("if-none-match") === etag) return c.body(null, 304, headers);
    return c.body(asset.body, 200, headers);
  });
