// Served as /assets/verdict-view.client.js. A classifier verdict as a card: outcome, layer, retry advice, findings.
import { duration, h } from "./dom.client.js";
import { jsonBlock } from "./json-view.client.js";
import { outcomeBadge } from "./outcomes.client.js";

const DECISIONS = {
  none: "No retry needed",
  conditional: "Retry, if it is safe",
  "fix-input": "Fix the input, then retry",
  "follow-up": "Send the follow-up request",
  "tool-semantics": "Depends on the tool",
  investigate: "Investigate before retrying",
  "do-not-retry": "Do not retry",
  reauthorize: "Re-authorize, then retry",
  renegotiate: "Renegotiate the protocol version",
  reinitialize: "Re-initialize the session",
};

const SEVERITY_ICONS = { error: "✕", warning: "!", info: "i" };

function retryBlock(retry) {
  if (!retry) return null;
  const facts = [
    retry.afterMs !== undefined ? `wait ${duration(retry.afterMs)}` : null,
    retry.maxAttempts !== undefined ? `at most ${retry.maxAttempts} attempts` : null,
    retry.initialBackoffMs !== undefined ? `back off from ${duration(retry.initialBackoffMs)}` : null,
    Array.isArray(retry.inputKeys) && retry.inputKeys.length ? `inputs: ${retry.inputKeys.join(", ")}` : null,
    Array.isArray(retry.supportedVersions) && retry.supportedVersions.length ? `versions: ${retry.supportedVersions.join(", ")}` : null,
  ].filter(Boolean);
  return h(
    "div",
    { class: "retry", dataset: { decision: String(retry.decision) } },
    h("div", { class: "retry-head" }, h("span", { class: "retry-label", text: "Retry" }), h("strong", { text: DECISIONS[retry.decision] ?? String(retry.decision) }), facts.length ? h("span", { class: "muted", text: ` · ${facts.join(" · ")}` }) : null),
    retry.reason ? h("p", { class: "retry-reason", text: retry.reason }) : null,
  );
}

/** The findings, most severe first. */
export function findingsList(findings) {
  if (!Array.isArray(findings) || findings.length === 0) return h("p", { class: "muted small-text", text: "No findings." });
  const order = { error: 0, warning: 1, info: 2 };
  const sorted = [...findings].sort((a, b) => (order[a.severity] ?? 3) - (order[b.severity] ?? 3));
  return h(
    "ul",
    { class: "findings" },
    sorted.map((finding) => {
      const severity = Object.hasOwn(SEVERITY_ICONS, finding.severity) ? finding.severity : "info";
      return h(
        "li",
        { class: `finding sev-${severity}` },
        h("span", { class: "sev-icon", "aria-label": severity, title: severity, text: SEVERITY_ICONS[severity] }),
        h("div", {}, h("code", { class: "finding-code", text: String(finding.code ?? "") }), h("span", { text: ` ${finding.message ?? ""}` }), finding.specRef ? h("span", { class: "muted small-text", text: ` (${finding.specRef})` }) : null),
      );
    }),
  );
}

/** A verdict card; `heading` (optional) names the exchange it belongs to. */
export function verdictCard(verdict, heading) {
  const facts = [
    verdict.status !== undefined ? `HTTP ${verdict.status}` : null,
    verdict.code !== undefined ? `code ${verdict.code}` : null,
    verdict.transport ? `${verdict.transport} body` : null,
    verdict.protocolVersion ? `MCP ${verdict.protocolVersion}` : null,
  ].filter(Boolean);
  return h(
    "article",
    { class: "verdict-card" },
    heading ? h("h3", { class: "verdict-heading", text: heading }) : null,
    h(
      "div",
      { class: "verdict-head" },
      outcomeBadge(verdict.outcome),
      verdict.layer ? h("span", { class: `layer-chip layer-${verdict.layer}`, text: String(verdict.layer) }) : null,
      facts.length ? h("span", { class: "muted mono small-text", text: facts.join(" · ") }) : null,
    ),
    retryBlock(verdict.retry),
    findingsList(verdict.findings),
    h("details", { class: "raw-verdict" }, h("summary", { text: "Raw verdict" }), jsonBlock(verdict)),
  );
}
