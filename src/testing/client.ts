import type { Check } from "../checks/check.ts";
import { type Entry, FaultlineApi, type ListedSession } from "../cli/api.ts";

export interface SessionOptions {
  /** A scenario id, e.g. "errors.http_status_sequence" (GET /api/scenarios lists them). */
  scenario: string;
  /** The scenario's params; its defaults when left out. */
  params?: Record<string, unknown>;
}

/** One session: where the client under test connects, and what the server saw and judged. */
export interface Session {
  id: string;
  /** The session's MCP endpoint: give it to the client under test. */
  mcpUrl: string;
  /** Every exchange so far, oldest first. */
  journal(): Promise<Entry[]>;
  /** The checks' judgement of the client so far. */
  checks(): Promise<Check[]>;
  /** Empties the journal and the counters, keeping the scenario. */
  reset(): Promise<void>;
  delete(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A Faultline server, started by startFaultline or already running. */
export interface Faultline {
  /** The server's origin, e.g. http://127.0.0.1:40123. */
  url: string;
  createSession(options: SessionOptions): Promise<Session>;
  sessions(): Promise<ListedSession[]>;
}

/** A client for a Faultline server that is already running; `token` is FAULTLINE_ADMIN_TOKEN when it has one. */
export function connectFaultline(url: string, options: { token?: string | undefined } = {}): Faultline {
  const origin = url.replace(/\/+$/, "");
  const api = new FaultlineApi(origin, options.token);
  return {
    url: origin,
    sessions: () => api.sessions(),
    async createSession({ scenario, params = {} }) {
      const { id, mcpUrl } = await api.createSession(scenario, params);
      const remove = () => api.deleteSession(id);
      return {
        id,
        mcpUrl,
        journal: () => api.entries(id),
        checks: () => api.checks(id),
        reset: async () => void (await api.resetSession(id)),
        delete: remove,
        [Symbol.asyncDispose]: remove,
      };
    },
  };
}
