import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startServer, type TestServer } from "../helpers/server.ts";

/** HOME_PAGE_SIZE in src/dashboard/home-page.tsx (a .tsx module, which Node does not import). */
const HOME_PAGE_SIZE = 100;
// The dashboard's home page pages through the session list with the list's cursor and says how many sessions exist.

const TOTAL = 2 * HOME_PAGE_SIZE + 5;
let server: TestServer;
before(async () => {
  server = await startServer();
  for (let start = 0; start < TOTAL; start += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, TOTAL - start) }, async (_, k) => {
        const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "baseline", id: `home-${start + k}` }) });
        assert.equal(res.status, 201, await res.text());
      }),
    );
  }
});
after(() => server?.close());

async function page(path: string) {
  const res = await fetch(`${server.url}${path}`, { headers: { accept: "text/html" } });
  const html = await res.text();
  assert.equal(res.status, 200, html.slice(0, 300));
  return {
    html,
    ids: [...html.matchAll(/<a class="mono" href="\/sessions\/([^"]+)">/g)].map((m) => m[1]!),
    total: html.match(/data-role="session-total">(\d+)</)?.[1],
    next: html.match(/<a href="(\/\?cursor=[^"]+)" rel="next">/)?.[1]?.replace(/&amp;/g, "&"),
  };
}

test("the home page shows a page of sessions, the count of all of them, and a next-page link until the last page", async () => {
  const seen: string[] = [];
  let path: string | undefined = "/";
  let pages = 0;
  while (path && pages < 10) {
    const shown = await page(path);
    assert.equal(shown.total, String(TOTAL), "every page says how many sessions exist");
    assert.ok(shown.ids.length <= HOME_PAGE_SIZE);
    seen.push(...shown.ids);
    path = shown.next;
    pages++;
  }
  assert.equal(pages, 3);
  assert.equal(seen.length, TOTAL);
  assert.deepEqual([...seen].sort(), Array.from({ length: TOTAL }, (_, n) => `home-${n}`).sort(), "every session once");
});

test("a later page links back to the first, and a page link that is no cursor shows the first page with a notice", async () => {
  const first = await page("/");
  const second = await page(first.next!);
  assert.match(second.html, /<a href="\/">First page<\/a>/);
  assert.doesNotMatch(first.html, /First page/);
  const bad = await page("/?cursor=not-a-cursor");
  assert.match(bad.html, /That page link is not valid/);
  assert.deepEqual(bad.ids, first.ids);
});
