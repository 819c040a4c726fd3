/**
 * A bounded throttle on failed token guesses (a wrong Bearer token on the management surface, a wrong token in the
 * login form). Without it a client tried 714 logins a second. Fixed windows of one minute: a client past
 * FAILS_PER_CLIENT failures, or all clients together past FAILS_ALL_CLIENTS, get 429 with Retry-After until the window
 * ends, before their token is even compared (otherwise the answer to a throttled guess would still tell a hit from a
 * miss). Memory is bounded: at most CLIENTS_MAX clients are remembered; past that, new clients share one bucket.
 * State lives in the isolate's memory: a restart forgets it, and on Cloudflare each isolate counts on its own.
 */

export const WINDOW_MS = 60_000;
export const FAILS_PER_CLIENT = 10;
export const FAILS_ALL_CLIENTS = 100;
export const CLIENTS_MAX = 1_000;

interface Bucket {
  start: number;
  fails: number;
}

const clients = new Map<string, Bucket>();
const everyone: Bucket = { start: 0, fails: 0 };
const OVERFLOW = "(too many clients)";

/**
 * Who is guessing: Cloudflare's CF-Connecting-IP (set by Cloudflare, and by wrangler dev from the socket when the
 * client did not send one). workerd run directly (`npm run serve`) passes no peer address, so there every client is
 * one; the limit for all clients together also holds when a client forges the header to look like many.
 */
export function clientKey(request: Request): string {
  return request.headers.get("cf-connecting-ip")?.trim() || "unknown";
}

function current(bucket: Bucket, now: number): Bucket {
  if (now - bucket.start >= WINDOW_MS) {
    bucket.start = now;
    bucket.fails = 0;
  }
  return bucket;
}

function bucketOf(key: string, now: number): Bucket {
  let bucket = clients.get(key);
  if (!bucket) {
    if (clients.size >= CLIENTS_MAX) for (const [k, b] of clients) if (now - b.start >= WINDOW_MS) clients.delete(k);
    const slot = clients.size >= CLIENTS_MAX ? OVERFLOW : key;
    bucket = clients.get(slot) ?? { start: now, fails: 0 };
    clients.set(slot, bucket);
  }
  return current(bucket, now);
}

/** Seconds until `key` may guess again, or undefined when it may guess now. */
export function throttledFor(key: string, now = Date.now()): number | undefined {
  const mine = bucketOf(key, now);
  const all = current(everyone, now);
  const until = Math.max(mine.fails >= FAILS_PER_CLIENT ? mine.start + WINDOW_MS : 0, all.fails >= FAILS_ALL_CLIENTS ? all.start + WINDOW_MS : 0);
  return until > now ? Math.ceil((until - now) / 1000) : undefined;
}

/** Counts one failed guess by `key`. */
export function recordFailure(key: string, now = Date.now()): void {
  bucketOf(key, now).fails++;
  current(everyone, now).fails++;
}

/** How many clients are remembered (for the memory bound's test). */
export function rememberedClients(): number {
  return clients.size;
}

/** Forgets every count: for tests, which share one module instance. */
export function resetThrottle(): void {
  clients.clear();
  everyone.start = 0;
  everyone.fails = 0;
}
