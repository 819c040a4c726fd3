import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createSession, startServer, type TestServer } from "../helpers/server.ts";

const run = promisify(execFile);

const XSS_TEXT = `<script>window.__pwned=1</script>"><img src=x onerror=alert(1)>`;

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.close();
});

const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

/** The CSP directives as a name -> sources map. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

function assertSecurityHeaders(res: Response) {
  const csp = res.headers.get("content-security-policy");
  assert.ok(csp, "Content-Security-Policy is set");
  const d = directives(csp);
  assert.deepEqual(d.get("default-src"), ["'none'"]);
  assert.deepEqual(d.get("script-src"), ["'self'"]);
  assert.deepEqual(d.get("style-src"), ["'self'"]);
  assert.deepEqual(d.get("connect-src"), ["'self'"]);
  assert.deepEqual(d.get("img-src"), ["'self'", "data:"]);
  assert.deepEqual(d.get("frame-ancestors"), ["'none'"]);
  assert.deepEqual(d.get("base-uri"), ["'none'"]);
  assert.deepEqual(d.get("form-action"), ["'self'"]);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|nonce-|sha256-|\*/);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.equal(res.headers.get("referrer-policy"), "same-origin");
}

/** Asserts that `html` contains `needle`, without dumping the whole page when it does not. */
function assertIncludes(html: string, needle: string, what = needle) {
  if (!html.includes(needle)) assert.fail(`the page lacks ${what}`);
}

function assertExcludes(html: string, needle: string, what = needle) {
  if (html.includes(needle)) assert.fail(`the page contains ${what}`);
}

const TAG = /<[a-zA-Z][^\s/>]*((?:\s+[^\s"'=<>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s"'=<>/]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;

/** The names of every attribute of every tag, read with quoted values skipped (so text inside them is not a name). */
function attributeNames(html: string): string[] {
  return [...html.matchAll(TAG)].flatMap((tag) => [...(tag[1] ?? "").matchAll(ATTRIBUTE)].map((a) => a[1] as string));
}

/** Pages must run nothing inline: every script is external, no event-handler or style attributes. */
function assertNoInlineCode(html: string) {
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) assert.match(tag, /\ssrc="\/assets\/[\w.-]+\.client\.js"/, `inline script: ${tag}`);
  assert.doesNotMatch(html, /<script\b[^>]*>[^<]+<\/script>/i, "no script has a body");
  const names = attributeNames(html);
  assert.ok(names.includes("class") && names.includes("aria-label"), "the attribute scan sees attributes");
  for (const name of names) {
    if (/^on/i.test(name) || name.toLowerCase() === "style") assert.fail(`a tag has a ${name} attribute`);
  }
  assert.doesNotMatch(html, /<style\b/i, "no <style> element");
}

describe("dashboard pages", () => {
  test("the home page renders the picker with security headers and no inline code", async () => {
    const res = await get("/");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assertSecurityHeaders(res);
    const html = await res.text();
    assert.match(html, /^<!doctype html>/i);
    assertNoInlineCode(html);
    assertIncludes(html, '<form class="picker" id="picker-create"');
    assert.match(html, /value="errors\.http_status_sequence"/);
    assert.match(html, /data-path="params\.statusCodes" data-kind="list-number"/, "an array of integers is a comma list");
    assert.match(html, /data-path="params\.retryAfter" data-kind="scalar"/, "a number-or-string union is one text field");
    assert.match(html, /<select id="picker-create-errors_http_status_sequence-body"/, "an enum is a select");
  });

  test("the home page lists sessions with links to their pages", async () => {
    const session = await createSession(server, "baseline");
    const html = await (await get("/")).text();
    assertIncludes(html, `href="/sessions/${session.id}"`);
    assertIncludes(html, session.mcpUrl);
  });

  test("the session page escapes a <script>-bearing param and shows the MCP URL and client configs", async () => {
    const session = await createSession(server, "errors.tool_error", { text: XSS_TEXT });
    const res = await get(`/sessions/${session.id}`);
    assert.equal(res.status, 200);
    assertSecurityHeaders(res);
    const html = await res.text();
    assertNoInlineCode(html);
    assertExcludes(html, "<script>window.__pwned", "the raw script tag never appears");
    assertExcludes(html, "<img src=x", "the raw img tag never appears");
    assertIncludes(html, "&lt;script&gt;window.__pwned=1&lt;/script&gt;", "the payload as text");
    assertIncludes(html, session.mcpUrl);
    for (const label of ["Claude Desktop", "Cursor", "VS Code", "curl", "TypeScript SDK"]) assertIncludes(html, `>${label}</button>`, label);
    assertIncludes(html, "mcp-remote");
    assertIncludes(html, "Mcp-Method: tools/call");
    assertIncludes(html, `href="/api/sessions/${session.id}/journal?format=jsonl"`);
    assertIncludes(html, `href="/api/sessions/${session.id}/journal?format=har"`);
  });

  test("an unknown session gets a 404 page with the same headers", async () => {
    const res = await get("/sessions/no-such-session-here");
    assert.equal(res.status, 404);
    assertSecurityHeaders(res);
    assert.match(await res.text(), /no session &#39;no-such-session-here&#39;|no session 'no-such-session-here'/i);
  });

  test("the classify playground renders its form and examples", async () => {
    const res = await get("/classify");
    assert.equal(res.status, 200);
    assertSecurityHeaders(res);
    const html = await res.text();
    assertNoInlineCode(html);
    assert.match(html, /<textarea id="classify-input"/);
    assert.match(html, /data-example-id="http-503"/);
  });
});

describe("dashboard assets", () => {
  test("the stylesheet, icon and scripts are served with their content types and nosniff", async () => {
    const css = await get("/assets/app.css");
    assert.equal(css.status, 200);
    assert.equal(css.headers.get("content-type"), "text/css; charset=utf-8");
    assertSecurityHeaders(css);
    assert.match(await css.text(), /prefers-color-scheme: dark/);

    const icon = await get("/assets/icon.svg");
    assert.equal(icon.headers.get("content-type"), "image/svg+xml");

    const js = await get("/assets/session.client.js");
    assert.equal(js.status, 200);
    assert.equal(js.headers.get("content-type"), "text/javascript; charset=utf-8");
    assertSecurityHeaders(js);
  });

  test("an unknown asset is a 404", async () => {
    const res = await get("/assets/nope.js");
    assert.equal(res.status, 404);
    assertSecurityHeaders(res);
  });

  test("an asset answers 304 to its own ETag", async () => {
    const first = await get("/assets/dom.client.js");
    const etag = first.headers.get("etag");
    assert.ok(etag);
    await first.arrayBuffer();
    const second = await get("/assets/dom.client.js", { headers: { "if-none-match": etag } });
    assert.equal(second.status, 304);
  });

  test("every script a page loads, and every module they import, exists and parses as a module", async () => {
    const pages = await Promise.all(["/", "/classify", `/sessions/${(await createSession(server, "baseline")).id}`].map(async (p) => (await get(p)).text()));
    const queue = [...new Set(pages.flatMap((html) => [...html.matchAll(/src="\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1] as string)))];
    assert.ok(queue.length >= 3);
    const seen = new Set<string>();
    const dir = await mkdtemp(join(tmpdir(), "faultline-assets-"));
    try {
      while (queue.length) {
        const name = queue.shift() as string;
        if (seen.has(name)) continue;
        seen.add(name);
        const res = await get(`/assets/${name}`);
        assert.equal(res.status, 200, name);
        const source = await res.text();
        assert.doesNotMatch(source, /\.innerHTML\s*=|insertAdjacentHTML|outerHTML\s*=|document\.write/, `${name} builds DOM with textContent only`);
        const file = join(dir, name.replace(/\.js$/, ".mjs"));
        await writeFile(file, source);
        await run(process.execPath, ["--check", file]);
        for (const [, imported] of source.matchAll(/from "\.\/([\w.-]+\.client\.js)"/g)) queue.push(imported as string);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    assert.ok(seen.size >= 10, `checked ${seen.size} modules`);
  });
});
