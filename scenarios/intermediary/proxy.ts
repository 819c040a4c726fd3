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
const PRESETS = {
  cloudflare_524: { status: 524, page: "cloudflare" },
  nginx_504: { status: 504, page: "nginx" },
  alb_504: { status: 504, page: "alb" },
  alb_502: { status: 502, page: "alb" },
} as const satisfies Record<string, { status: number; page: Extract<Fault, { kind: "idle_cut" }>["page"] }>;

type Preset = keyof typeof PRESETS;
const PRESET_NAMES = Object.keys(PRESETS) as [Preset, ...Preset[]];

/** How much longer than the idle window the server behind stays silent when `workMs` is not given. */
const OVERRUN_MS = 5_000;

export default selectiveScenario({
  id: "intermediary.proxy",
  title: "Intermediary in front of the server",
  summary:
    "Selected requests (tools/call by default) pass through an intermediary that gives up on a silent server: the server behind is asked at once (the tool runs, or the upstream is called) and stays silent for `workMs`; when that outlasts the intermediary's `idleMs`, the client gets the intermediary's HTML error page instead of the answer (`preset`: cloudflare_524, nginx_504, alb_504, alb_502), and an answer within the window goes out as it is. In the field the windows are 100 s (Cloudflare) and 60 s (nginx's proxy_read_timeout, an ALB's idle timeout); the default here is 5 s.",
  layer: "transport",
  params: {
    preset: z.enum(PRESET_NAMES).default("nginx_504").describe("Which intermediary: cloudflare_524 (524, an edge's page; 100 s in the field), nginx_504 (504; proxy_read_timeout 60 s), alb_504 (504; idle timeout 60 s), alb_502 (502, the target closed first)"),
    idleMs: z.number().int().min(0).max(600_000).default(5_000).describe("The intermediary's idle window (the field's: 100,000 for Cloudflare, 60,000 for nginx and an ALB)"),
    workMs: z.number().int().min(0).max(600_000).optional().describe("How long the server behind stays silent before its answer; default idleMs + 5000, so the cut comes. Below idleMs, no cut"),
  },
  judging: {
    checks: ["timeout-client-bounded", "http-retry-backoff", "http-retry-bounded", "non-idempotent-not-replayed"],
    cannotTell: "that a client left during the idle window: the server learns of a leave only when it next writes, so a client that gave up reads as one that waited for the page",
  },
  example: { preset: "nginx_504", idleMs: 2_000, workMs: 4_000 },
  fault: ({ params }) => {
    const preset = PRESETS[params.preset];
    return { kind: "idle_cut", ms: params.idleMs, workMs: params.workMs ?? params.idleMs + OVERRUN_MS, status: preset.status, page: preset.page };
  },
});
