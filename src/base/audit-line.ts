import { z } from "zod";

/**
 * Who made a change: the admin or viewer token (or its login cookie), `local` when no token is configured (whoever
 * reached the port), `system` for the idle alarm.
 */
export const AuditWhoSchema = z.enum(["admin", "viewer", "local", "system"]);

/**
 * What changed: a session created, its scenario changed, reset, its MCP sessions all ended at once, deleted, or deleted by the idle alarm; a HAR uploaded
 * or an upload deleted (then `session` is the upload's object name, `upload:{id}`).
 */
export const AuditActionSchema = z.enum(["create", "scenario", "reset", "expire-mcp-sessions", "delete", "expire", "upload", "delete-upload"]);

/** One audit line as stored in the session index and returned by GET /api/audit. */
export const AuditLineSchema = z.object({
  seq: z.number().int().positive(),
  at: z.string(),
  who: AuditWhoSchema,
  action: AuditActionSchema,
  session: z.string(),
  /** The scenario a create or a change set; absent otherwise. */
  scenario: z.string().optional(),
});
export type AuditLine = z.infer<typeof AuditLineSchema>;
export type AuditEntry = Omit<AuditLine, "seq">;

/** The audit lines kept unless FAULTLINE_AUDIT_MAX_LINES says otherwise; older ones are dropped as new ones come. */
export const DEFAULT_AUDIT_MAX_LINES = 10_000;

export function auditMaxLines(vars: { FAULTLINE_AUDIT_MAX_LINES?: string }): number {
  const n = Number(vars.FAULTLINE_AUDIT_MAX_LINES);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_AUDIT_MAX_LINES;
}
