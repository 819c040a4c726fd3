import base from "./client/styles/base.css" with { type: "text" };
import controls from "./client/styles/controls.css" with { type: "text" };
import drawerCss from "./client/styles/drawer.css" with { type: "text" };
import pages from "./client/styles/pages.css" with { type: "text" };
import pickerCss from "./client/styles/picker.css" with { type: "text" };
import sessionCss from "./client/styles/session.css" with { type: "text" };
import timelineCss from "./client/styles/timeline.css" with { type: "text" };
import icon from "./client/icon.svg" with { type: "text" };
import checks from "./client/checks.client.js" with { type: "text" };
import classify from "./client/classify.client.js" with { type: "text" };
import common from "./client/common.client.js" with { type: "text" };
import dom from "./client/dom.client.js" with { type: "text" };
import drawer from "./client/drawer.client.js" with { type: "text" };
import home from "./client/home.client.js" with { type: "text" };
import journal from "./client/journal.client.js" with { type: "text" };
import jsonView from "./client/json-view.client.js" with { type: "text" };
import outcomes from "./client/outcomes.client.js" with { type: "text" };
import params from "./client/params.client.js" with { type: "text" };
import picker from "./client/picker.client.js" with { type: "text" };
import session from "./client/session.client.js" with { type: "text" };
import timelineLayout from "./client/timeline-layout.client.js" with { type: "text" };
import timeline from "./client/timeline.client.js" with { type: "text" };
import tryIt from "./client/try-it.client.js" with { type: "text" };
import verdictView from "./client/verdict-view.client.js" with { type: "text" };
import homeChecks from "./client/home-checks.client.js" with { type: "text" };
import { GENERATED_MODULES, outcomeCss } from "./outcome-assets.ts";

export interface Asset {
  body: string;
  contentType: string;
}

const JS = "text/javascript; charset=utf-8";

/** One stylesheet from the parts under client/styles/ and the outcome colours, in cascade order (narrow-screen rules last). */
const css = [base, controls, outcomeCss, pickerCss, sessionCss, timelineCss, drawerCss, pages].join("\n");

/**
 * The dashboard's static files, served at /assets/{name}. Browser scripts are ES modules that import each other
 * by these same names, so the files under client/ keep the names they are served as.
 */
export const ASSETS: ReadonlyMap<string, Asset> = new Map<string, Asset>([
  ["app.css", { body: css, contentType: "text/css; charset=utf-8" }],
  ["icon.svg", { body: icon, contentType: "image/svg+xml" }],
  ...Object.entries({
    checks,
    classify,
    common,
    dom,
    drawer,
    home,
    "home-checks": homeChecks,
    journal,
    "json-view": jsonView,
    outcomes,
    params,
    picker,
    session,
    "timeline-layout": timelineLayout,
    timeline,
    "try-it": tryIt,
    "verdict-view": verdictView,
  }).map(([name, body]): [string, Asset] => [`${name}.client.js`, { body, contentType: JS }]),
  ...Object.entries(GENERATED_MODULES).map(([name, body]): [string, Asset] => [name, { body, contentType: JS }]),
]);

/** A weak validator for an asset: FNV-1a over its text, so a redeploy with new files changes every ETag. */
export function assetEtag(asset: Asset): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < asset.body.length; i++) {
    hash ^= asset.body.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `W/"${(hash >>> 0).toString(16)}-${asset.body.length.toString(16)}"`;
}
