import type { ProxiedEntry } from "../journal/entry.ts";
import { shownUpstreamUrl } from "./config.ts";

/** What the journal learns about one proxied exchange, filled in as the exchange goes; read once it has ended. */
export class UpstreamTrace {
  private readonly entry: ProxiedEntry;
  private text = "";
  private bytes = 0;
  private reading = false;
  private tool: Promise<{ name: string; annotations?: Record<string, unknown> } | undefined> = Promise.resolve(undefined);

  /** `upstream` is the stored URL; the entry, and every message that names it, shows it redacted (shownUpstreamUrl). */
  constructor(upstream: string, mode: ProxiedEntry["mode"]) {
    this.entry = { upstream: shownUpstreamUrl(upstream), mode };
  }

  /** How the answer came about, once it is known: forwarded, altered by a fault, or replaced (never asked). */
  mode(mode: ProxiedEntry["mode"]): void {
    this.entry.mode = mode;
  }

  requested(headers: Record<string, string>): void {
    this.entry.request = { headers };
  }

  answered(status: number, headers: Record<string, string>): void {
    this.entry.response = { status, headers };
  }

  failed(reason: string): void {
    this.entry.error = reason;
  }

  /** The called tool as the upstream declares it, once its tools/list has been read. */
  describe(tool: Promise<{ name: string; annotations?: Record<string, unknown> } | undefined>): void {
    this.tool = tool;
  }

  note(text: string): void {
    this.entry.note = text;
  }

  /** The upstream's body as it was read, up to `cap` characters: kept only when a fault changed it on its way. */
  read(chunk: string, cap: number): void {
    this.reading = true;
    this.bytes += new TextEncoder().encode(chunk).byteLength;
    if (this.text.length < cap) this.text += chunk;
  }

  /** The entry, with the upstream's body when it was read (the recorder caps it and judges it). */
  async done(): Promise<{ entry: ProxiedEntry; body?: { text: string; bytes: number } }> {
    const tool = await this.tool;
    return { entry: { ...this.entry, ...(tool ? { tool } : {}) }, ...(this.reading ? { body: { text: this.text, bytes: this.bytes } } : {}) };
  }

  get upstream(): string {
    return this.entry.upstream;
  }
}
