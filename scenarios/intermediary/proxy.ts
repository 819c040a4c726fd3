import { z } from "zod";
import type { Fault } from "../../src/faults/schema.ts";
import { selectiveScenario } from "../../src/scenario-kit/select.ts";

/**
 * What each intermediary does when the server behind it is silent too long, with the idle window it has in the field
 * (documented; the scenario's default window is short enough for a run): Cloudflare's edge answers 524 "A timeout
 * occurred" after 100 s without a response; nginx's proxy_read_timeout (60 s by default, between two reads) gives 504
 * Gateway Time-out; an AWS Application Load Balancer's idle timeout (60 s by default) gives 504, and 502 when the
 * target closes the connection first.
 */
const CUTS = {
  cloudflare_524: { status: 524, page: "cloudflare" },
  nginx_504: { status: 504, page: "nginx" },
  alb_504: { status: 504, page: "alb" },
  alb_502: { status: 502, page: "alb" },
} as const satisfies Record<string, { status: number; page: Extract<Fault, { kind: "idle_cut" }>["page"] }>;

/**
 * Intermediaries that hold a stream back instead of cutting it: one that sends the status line and headers only with
 * the body's first byte, and nginx's proxy_buffering (on by default), which holds an SSE response's events until the
 * end unless the server sends X-Accel-Buffering: no.
 */
const HOLDS = { headers_withheld: "headers", sse_buffered: "events" } as const satisfies Record<string, Extract<Fault, { kind: "buffered" }>["hold"]>;

type Preset = keyof typeof CUTS | keyof typeof HOLDS;
const PRESET_NAMES = [...Object.keys(CUTS), ...Object.keys(HOLDS)] as [Preset, ...Preset[]];

/** How much longer than the idle window the server behind stays silent when `workMs` is not given. */
const OVERRUN_MS = 5_000;

export default selectiveScenario({
  id: "intermediary.proxy",
  title: "Intermediary in front of the server",
  summary:
    "Selected requests (tools/call by default) pass through an intermediary that gives up on a silent server: the server behind is asked at once (the tool runs, or the upstream is called) and stays silent for `workMs`; when that outlasts the intermediary's `idleMs`, the client gets the intermediary's HTML error page instead of the answer (`preset`: cloudflare_524, nginx_504, alb_504, alb_502), and an answer within the window goes out as it is. In the field the windows are 100 s (Cloudflare) and 60 s (nginx's proxy_read_timeout, an ALB's idle timeout); the default here is 5 s. Two presets hold the stream back instead (idleMs does not apply): headers_withheld sends no status line or headers until the server's first byte, its answer on an SSE stream after workMs; sse_buffered sends the headers at once and holds every SSE event (notifications/progress every intervalMs for a request with a progressToken, then the answer) until the end, as nginx's proxy_buffering does without X-Accel-Buffering: no.",
  layer: "transport",
  params: {
    preset: z
      .enum(PRESET_NAMES)
      .default("nginx_504")
      .describe(
        "Which intermediary: cloudflare_524 (524, an edge's page; 100 s in the field), nginx_504 (504; proxy_read_timeout 60 s), alb_504 (504; idle timeout 60 s), alb_502 (502, the target closed first), " +
          "headers_withheld (no status line or headers until the server's first byte, after workMs), sse_buffered (headers at once, every SSE event held until the stream ends after workMs)",
      ),
    idleMs: z.number().int().min(0).max(600_000).default(5_000).describe("The intermediary's idle window (the field's: 100,000 for Cloudflare, 60,000 for nginx and an ALB)"),
    workMs: z.number().int().min(0).max(600_000).optional().describe("How long the server behind stays silent before its answer (sse_buffered: how long its stream runs); default idleMs + 5000, so the cut comes. Below idleMs, no cut"),
    intervalMs: z.number().int().min(100).max(60_000).default(1_000).describe("sse_buffered: pause between the server's notifications/progress (SSE comments without a progressToken), all held until the end"),
  },
  judging: {
    checks: ["timeout-client-bounded", "http-retry-backoff", "http-retry-bounded", "non-idempotent-not-replayed"],
    cannotTell: "that a client left during the idle window or the hold: the server learns of a leave only when it next writes, so a client that gave up reads as one that waited (under sse_buffered, as one that left at the end); and whether a client that got every held event in one read parsed them all (it shows only in what it sends next)",
  },
  example: { preset: "nginx_504", idleMs: 2_000, workMs: 4_000 },
  fault: ({ params }) => {
    const workMs = params.workMs ?? params.idleMs + OVERRUN_MS;
    const preset = params.preset;
    if (preset === "headers_withheld" || preset === "sse_buffered") return { kind: "buffered", hold: HOLDS[preset], ms: workMs, intervalMs: params.intervalMs };
    return { kind: "idle_cut", ms: params.idleMs, workMs, status: CUTS[preset].status, page: CUTS[preset].page };
  },
});
