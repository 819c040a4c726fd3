/**
 * CPU profiles of workerd while load runs: workerd's inspector (`--inspector-addr`) speaks the Chrome DevTools
 * Protocol; this connects with Node's WebSocket, runs Profiler.start/stop around the load and sums self time per
 * function (the profile's samples, each charged to the leaf frame), so each path's top functions can be reported.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Hot {
  fn: string;
  /** Share of the profile's samples (idle included) spent in this function itself. */
  selfPercent: number;
  /** Share of the samples with this function anywhere on the stack (itself and what it called). */
  totalPercent: number;
}

export interface Hotspots {
  /** By self time. */
  self: Hot[];
  /** By total time, the bundle's own functions only (where Faultline's code spends, callees included). */
  total: Hot[];
}

class Cdp {
  #next = 1;
  #waiting = new Map<number, (result: unknown) => void>();
  private readonly socket: WebSocket;
  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id === undefined) return;
      this.#waiting.get(message.id)?.(message.error ? new Error(message.error.message) : message.result);
      this.#waiting.delete(message.id);
    });
  }
  static async open(url: string): Promise<Cdp> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("error", () => reject(new Error(`cannot open the inspector at ${url}`)), { once: true });
    });
    return new Cdp(socket);
  }
  async send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.#next++;
    const result = await new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.socket.send(JSON.stringify({ id, method, params }));
    });
    if (result instanceof Error) throw result;
    return result as T;
  }
  close() {
    this.socket.close();
  }
}

/** The first inspectable target of workerd's inspector (the Worker; its Durable Objects run in the same isolate). */
async function targetUrl(inspectorPort: number): Promise<string> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as { webSocketDebuggerUrl?: string }[];
  const url = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
  if (!url) throw new Error(`workerd's inspector on port ${inspectorPort} lists no target`);
  return url;
}

/** Runs `work` under the CPU profiler; returns the profile (DevTools' format, as a .cpuprofile file holds it). */
export async function profileOf(inspectorPort: number, work: () => Promise<unknown>): Promise<Profile> {
  const cdp = await Cdp.open(await targetUrl(inspectorPort));
  try {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    await work();
    return (await cdp.send<{ profile: Profile }>("Profiler.stop")).profile;
  } finally {
    cdp.close();
  }
}

/** Runs `work` under the CPU profiler; returns its top functions by self and by total time. */
export async function profileWhile(inspectorPort: number, work: () => Promise<unknown>, top = 12): Promise<Hotspots> {
  return topFunctions(await profileOf(inspectorPort, work), top);
}

const frameName = (frame: CallFrame) => {
  const file = frame.url.split("/").pop() || "";
  return `${frame.functionName || "(anonymous)"}${file ? ` ${file}:${frame.lineNumber + 1}` : ""}`;
};

export function topFunctions(profile: Profile, top: number): Hotspots {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const id of profile.samples) {
    const leaf = byId.get(id);
    if (!leaf) continue;
    const leafName = frameName(leaf.callFrame);
    self.set(leafName, (self.get(leafName) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (!frame.url.endsWith("worker.js")) continue;
      const name = frameName(frame);
      if (!seen.has(name)) total.set(name, (total.get(name) ?? 0) + 1), seen.add(name);
    }
  }
  const count = profile.samples.length || 1;
  const hot = (name: string): Hot => ({ fn: name, selfPercent: (100 * (self.get(name) ?? 0)) / count, totalPercent: (100 * (total.get(name) ?? self.get(name) ?? 0)) / count });
  const ranked = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name]) => hot(name));
  return { self: ranked(self), total: ranked(total) };
}
