import { LOG_LEVELS, type LogLevel } from "./tool.ts";
import { META, type Era } from "../wire/versions.ts";

/**
 * The level below which notifications/message is not sent. Legacy eras: the level set with logging/setLevel on the
 * MCP session (`sessionLevel`), everything when none was set.
 */
export function logThreshold(era: Era, params: Record<string, unknown>, sessionLevel: LogLevel | undefined): LogLevel | undefined {
  if (era === "modern") {
    // 2026-07-28 logging: without _meta logLevel the server MUST NOT send notifications/message.
    const level = (params._meta as Record<string, unknown> | undefined)?.[META.logLevel];
    return (LOG_LEVELS as readonly unknown[]).includes(level) ? (level as LogLevel) : undefined;
  }
  return sessionLevel ?? "debug";
}

export function progressTokenOf(params: Record<string, unknown>): string | number | undefined {
  const token = (params._meta as Record<string, unknown> | undefined)?.progressToken;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}
