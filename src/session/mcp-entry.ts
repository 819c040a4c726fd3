import { findScenario } from "../../scenarios/index.ts";
import { publicOrigin } from "../base/public-origin.ts";
import { DEFAULT_BODY_CAP } from "../journal/capture.ts";
import { journalled } from "../journal/recorder.ts";
import { handleMcp } from "../mcp/pipeline.ts";
import { sessionBearer } from "../oauth/session.ts";
import { recordHandled } from "../recording/recorder.ts";
import type { RecordingStore } from "../recording/store.ts";
import { Deadline } from "../wire/deadline.ts";
import { ErrorCode, errorMessage } from "../wire/jsonrpc.ts";
import { jsonResponse } from "../wire/response.ts";
import { answerSource } from "./answer-source.ts";
import { positive } from "./env-number.ts";
import type { LiveSession } from "./live-session.ts";
import type { SessionRecord } from "./record.ts";
import type { SessionJournal } from "./session-journal.ts";

/** What the MCP endpoint reads of its session; the SessionObject provides it (its parts change after an erase). */
export interface McpHost {
  readonly ctx: DurableObjectState;
  readonly env: Env;
  /** The live MCP state (a new one after an erase). */
  live(): LiveSession;
  /** The record; reading it notes a use of the session (idle expiry). */
  record(): SessionRecord | undefined;
  /** The `default` session on its first MCP request; undefined for any other id. */
  createDefault(): Promise<SessionRecord | undefined>;
  /** The session's stores; only read once a record was found, so they exist. */
  stores(): { journal: SessionJournal; recording: RecordingStore };
  /** The journal's and the recording's redaction. */
  readonly redaction: { extraNames: readonly string[] };
  /** Runs a task once the response in hand is released (WriteBehind.afterResponse). */
  afterResponse(task: () => void): void;
}

/** The MCP endpoint of one session: an exchange from the request to the journalled response. */
export class McpEntry {
  private readonly host: McpHost;

  constructor(host: McpHost) {
    this.host = host;
  }

  private get ctx() {
    return this.host.ctx;
  }
  private get env() {
    return this.host.env;
  }
  private get sql() {
    return this.host.ctx.storage.sql;
  }
  private get live() {
    return this.host.live();
  }
  private get recording() {
    return this.host.stores().recording;
  }
  private get redaction() {
    return this.host.redaction;
  }
  private record() {
    return this.host.record();
  }
  private createDefault() {
    return this.host.createDefault();
  }

  /** One exchange on the MCP endpoint; `finished` is called once it is journalled (or when nothing will be). */
  async exchange(request: Request, finished: () => void): Promise<Response> {
    const started = Date.now();
    const record = this.record() ?? (await this.createDefault());
    if (!record) {
      const id = this.ctx.id.name ?? "";
      const hint = `Create it with POST /api/sessions and the body {"id": ${JSON.stringify(id)}, "scenario": "baseline"} (any scenario), or use /mcp, the default session`;
      finished();
      return mcpEndpointError(404, `Session not found: no session has the id '${id}'. ${hint}`, { id });
    }
    const scenario = findScenario(record.scenario);
    if (!scenario) return finished(), mcpEndpointError(409, `Scenario '${record.scenario}' no longer exists: choose another with PUT /api/sessions/${record.id}/scenario`);
    const bearer = sessionBearer(request, scenario, this.sql, this.env);
    const { active, source } = answerSource(record, { scenario, params: record.params, ...(bearer ? { bearer } : {}) }, this.recording);
    const handled = await handleMcp(request, this.live, active, Deadline.fromVar(started, this.env.FAULTLINE_MAX_RESPONSE_SECONDS), publicOrigin(request, this.env), source);
    const answered = record.record ? recordHandled(this.recording, request, handled, started, { waitUntil: (promise) => this.ctx.waitUntil(promise), afterResponse: (task) => this.host.afterResponse(task) }, this.redaction) : handled;
    const journal = this.host.stores().journal;
    return journalled(request, answered, {
      started,
      scenario: scenario.id,
      bodyCap: positive(this.env.JOURNAL_BODY_CAP, DEFAULT_BODY_CAP),
      keepClientIp: String(this.env.JOURNAL_KEEP_CLIENT_IP) === "true",
      clientInfoFor: (id) => this.live.clientInfo(id),
      record: (entry, parsed) => journal.append(entry, parsed),
      waitUntil: (promise) => this.ctx.waitUntil(promise),
      afterResponse: (task) => this.host.afterResponse(task),
      finished,
    });
  }
}

/** A non-2xx answer on an MCP endpoint carries a JSON-RPC error, like every other (no request id can be known here). */
function mcpEndpointError(status: number, message: string, data?: unknown): Response {
  return jsonResponse(status, errorMessage(undefined, ErrorCode.InvalidRequest, message, data));
}
