import { test } from "node:test";
import assert from "node:assert/strict";
import { publicOrigin } from "../../src/base/public-origin.ts";

test("publicOrigin is the request's origin when FAULTLINE_PUBLIC_URL is empty or unset", () => {
  assert.equal(publicOrigin(new Request("http://127.0.0.1:8787/api/sessions"), {}), "http://127.0.0.1:8787");
  assert.equal(publicOrigin("http://localhost:9/x", { FAULTLINE_PUBLIC_URL: "" }), "http://localhost:9");
  assert.equal(publicOrigin("http://localhost:9/x", undefined), "http://localhost:9");
});

test("publicOrigin is FAULTLINE_PUBLIC_URL's origin when set, whatever the request came to", () => {
  assert.equal(publicOrigin(new Request("http://127.0.0.1:8787/mcp"), { FAULTLINE_PUBLIC_URL: "https://faultline.example.com/" }), "https://faultline.example.com");
  assert.equal(publicOrigin("http://127.0.0.1:8787/mcp", { FAULTLINE_PUBLIC_URL: " https://f.example:8443 " }), "https://f.example:8443");
});

test("a FAULTLINE_PUBLIC_URL that is not an http(s) URL falls back to the request's origin rather than printing a broken URL", () => {
  assert.equal(publicOrigin("http://127.0.0.1:8787/", { FAULTLINE_PUBLIC_URL: "faultline.example.com" }), "http://127.0.0.1:8787");
  assert.equal(publicOrigin("http://127.0.0.1:8787/", { FAULTLINE_PUBLIC_URL: "ftp://f.example" }), "http://127.0.0.1:8787");
});
