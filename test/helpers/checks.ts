import { setTimeout as sleep } from "node:timers/promises";
import type { Check } from "../../src/checks/index.ts";

/**
 * The session's checks once its journal holds `entries` exchanges (each is journalled after its body ends, so a test
 * that has read its responses waits a moment for the last entries).
 */
export async function checksOnceJournalled(server: { url: string }, sessionId: string, entries: number): Promise<Check[]> {
  for (let tries = 0; ; tries++) {
    const journal = (await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: unknown[] };
    if (journal.entries.length >= entries) break;
    if (tries > 200) throw new Error(`the journal has ${journal.entries.length} entries, not ${entries}`);
    await sleep(25);
  }
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}
