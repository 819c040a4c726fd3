import { z } from "zod";
import { text, type ToolAnnotations, type ToolDefinition } from "../../src/mcp/tool.ts";
import { RED_PIXEL_PNG, SILENT_WAV } from "./media.ts";
import { sleep } from "../../src/base/sleep.ts";

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A fixture tool without arguments. */
function fixture(name: string, description: string, run: ToolDefinition["run"], extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, description, args: z.object({}), annotations: READ_ONLY, run, ...extra };
}

/** Tools whose result content (or notifications) the suites check: server scenarios tools-call-*. */
export const CONTENT_TOOLS: readonly ToolDefinition[] = [
  fixture("test_simple_text", "Returns one text block.", async () => text("This is a simple text response for testing.")),
  fixture("test_image_content", "Returns one PNG image block (a red pixel).", async () => ({
    content: [{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }],
  })),
  fixture("test_audio_content", "Returns one WAV audio block (silence).", async () => ({
    content: [{ type: "audio", data: SILENT_WAV, mimeType: "audio/wav" }],
  })),
  fixture("test_embedded_resource", "Returns an embedded text resource.", async () => ({
    content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
  })),
  fixture("test_multiple_content_types", "Returns text, an image and an embedded resource.", async () => ({
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
      { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) } },
    ],
  })),
  fixture("test_error_handling", "Always fails as a tool execution error: an isError result, not a JSON-RPC error.", async () => ({
    content: [{ type: "text", text: "This tool intentionally returns an error for testing" }],
    isError: true,
  })),
  fixture(
    "test_tool_with_logging",
    "Sends three info log notifications about 50 ms apart, then returns (2026-07-28: only when the request's _meta asks for a log level).",
    async (_args, ctx) => {
      ctx.log("info", "Tool execution started", "conformance");
      await sleep(50);
      ctx.log("info", "Tool processing data", "conformance");
      await sleep(50);
      ctx.log("info", "Tool execution completed", "conformance");
      return text("Logging tool finished: three info messages sent.");
    },
    { streams: true },
  ),
  fixture(
    "test_tool_with_progress",
    "Reports progress 0, 50 and 100 of 100 about 50 ms apart for the request's _meta.progressToken, then returns.",
    async (_args, ctx) => {
      ctx.progress(0, 100);
      await sleep(50);
      ctx.progress(50, 100);
      await sleep(50);
      ctx.progress(100, 100);
      return text("Progress tool finished: 0, 50 and 100 of 100 reported.");
    },
    { streams: true },
  ),
  fixture(
    "test_reconnection",
    "2025-11-25 SSE polling (SEP-1699): the response stream sends a priming event id and retry, then closes before the result; a GET with Last-Event-ID delivers it.",
    async () => {
      await sleep(100);
      return text("Reconnection test finished: the result arrived on the resumed stream.");
    },
  ),
  {
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features: $schema, $defs with $anchor, allOf/anyOf, if/then/else and additionalProperties.",
    args: z.object({}).loose(),
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
      },
      properties: {
        name: { type: "string" },
        address: { $ref: "#/$defs/address" },
        contactMethod: { type: "string", enum: ["phone", "email"] },
        phone: { type: "string" },
        email: { type: "string" },
      },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    },
    annotations: READ_ONLY,
    run: async (args) => text(`Received: ${JSON.stringify(args)}`),
  },
];
