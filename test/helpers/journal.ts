import { setTimeout as sleep } from "node:timers/promises";
import type { JournalEntry } from "../../src/journal/entry.ts";

/** A session's journal, oldest first, once it holds `count` entries (each is recorded after its body ended). */
export async function journalOf(serverUrl: string, sessionId: string, count: number): Promise<JournalEntry[]> {
  for (let tries = 0;; tries++) {
    const body = (await (await fetch(`${serverUrl}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: JournalEntry[] };
    if (body.entries.length >= count) return body.entries.sort((a, b) => a.seq - b.seq);
    if (tries > 100) throw new Error(`the journal has ${body.entries.length} entries, not ${count}`);
    await sleep(50);
  }
}
