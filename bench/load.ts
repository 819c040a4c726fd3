/** The load generator: autocannon on loopback, bounded by time. */
import autocannon from "autocannon";

export interface Request {
  method?: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Sample {
  /** Requests answered per second (2xx and others alike; `bad` counts the non-2xx and errors). */
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  bad: number;
}

export async function load(base: string, request: Request, options: { seconds: number; connections: number }): Promise<Sample> {
  const result = await autocannon({
    url: `${base}${request.path}`,
    method: request.method ?? "GET",
    headers: request.headers,
    body: request.body,
    connections: options.connections,
    duration: options.seconds,
    timeout: 30,
  });
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.mean,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}
