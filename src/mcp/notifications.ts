import { LOG_LEVELS, type LogLevel } from "./tool.ts";
import { META, type Era } from "./versions.ts";


/** Legacy eras: the level set with logging/setLevel, per MCP session (in memory; a restart forgets it). */
const LEGACY_LOG_LEVELS = new Map<string, LogLevel>();

export function logThreshold(era: Era, params: Record<string, unknown>, mcpSessionId: string | undefined): LogLevel | undefined {
  if (era === "modern") {
    // 2026-07-28 logging: without _meta logLevel the server MUST NOT send notifications/message.
    const level = (params._meta as Record<string, unknown> | undefined)?.[META.logLevel];
    return (LOG_LEVELS as readonly unknown[]).includes(level) ? (level as LogLevel) : undefined;
  }
  return (mcpSessionId && LEGACY_LOG_LEVELS.get(mcpSessionId)) || "debug";
}

export function rememberLogLevel(mcpSessionId: string | undefined, level: unknown): void {
  if (!mcpSessionId || !(LOG_LEVELS as readonly unknown[]).includes(level)) return;
  if (LEGACY_LOG_LEVELS.size > 10_000) LEGACY_LOG_LEVELS.clear();
  LEGACY_LOG_LEVELS.set(mcpSessionId, level as LogLevel);
}

export function progressTokenOf(params: Record<string, unknown>): string | number | undefined {
  const token = (params._meta as Record<string, unknown> | undefined)?.progressToken;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

