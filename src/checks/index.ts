import { z } from "zod";
import type { JournalEntry } from "../journal/entry.ts";

export const CheckSchema = z.object({
  id: z.string(),
  status: z.enum(["pass", "fail", "warning", "info"]),
  message: z.string(),
  evidence: z.array(z.number().int()),
});
export type Check = z.infer<typeof CheckSchema>;

/** Judges the client from the journal of the active scenario. Placeholder: replaced by the checks module. */
export function runChecks(_scenario: string | undefined, _entries: readonly JournalEntry[]): Check[] {
  return [];
}
