import type { Layer, Outcome } from "./verdict.ts";

/** What everyone who shows or judges an outcome needs to know about it, beside the classifier's verdict. */
interface OutcomeTraits {
  /** The layer it belongs to; INVALID_TOOL_RESULT is protocol: the result broke the protocol's schema. */
  readonly layer: Layer;
  /** A short label for people (the dashboard's badges and legend). */
  readonly label: string;
  /** Its colour, as a token of the dashboard's theme: the CSS custom property `--o-{colour}`, light and dark. */
  readonly colour: "success" | "http" | "rpc" | "tool" | "input" | "invalid" | "stream" | "accepted";
  /** Whether the call is done and succeeded, so that a repeat of it is not the retry of a failure. */
  readonly success: boolean;
}

/**
 * The one table of outcomes (in the order the dashboard's legend lists them), read by the classifier (layer), the
 * checks (success) and the dashboard, whose browser modules get it as /assets/outcome-table.client.js, generated from
 * this table by src/dashboard/outcome-assets.ts.
 */
export const OUTCOMES: Readonly<Record<Outcome, OutcomeTraits>> = {
  TOOL_SUCCESS: { layer: "application", label: "success", colour: "success", success: true },
  HTTP_ERROR: { layer: "transport", label: "HTTP error", colour: "http", success: false },
  JSONRPC_ERROR: { layer: "protocol", label: "JSON-RPC error", colour: "rpc", success: false },
  TOOL_ERROR: { layer: "application", label: "tool error", colour: "tool", success: false },
  INPUT_REQUIRED: { layer: "interaction", label: "input required", colour: "input", success: false },
  MALFORMED_JSON: { layer: "protocol", label: "malformed JSON", colour: "invalid", success: false },
  INVALID_ENVELOPE: { layer: "protocol", label: "invalid envelope", colour: "invalid", success: false },
  INVALID_TOOL_RESULT: { layer: "protocol", label: "invalid result", colour: "invalid", success: false },
  STREAM_INCOMPLETE: { layer: "transport", label: "stream incomplete", colour: "stream", success: false },
  NOTIFICATION_ACCEPTED: { layer: "transport", label: "accepted", colour: "accepted", success: true },
  STREAM_OPEN: { layer: "transport", label: "stream open", colour: "accepted", success: true },
  SESSION_ENDED: { layer: "transport", label: "session ended", colour: "accepted", success: true },
  // SEP-2663: the request was accepted as a task; its result comes through tasks/get. A success, so that a later
  // call is no retry of a failure (it would start another task).
  TASK_CREATED: { layer: "application", label: "task created", colour: "accepted", success: true },
};

/** The layer of each outcome (a view of OUTCOMES, kept as the classifier's public name). */
export const OUTCOME_LAYER: Readonly<Record<Outcome, Layer>> = Object.fromEntries(
  Object.entries(OUTCOMES).map(([outcome, traits]) => [outcome, traits.layer]),
) as Record<Outcome, Layer>;
