/** An error the CLI reports in a few lines with exit status 2, with no stack: the user's to fix, not a bug. */
export class CliError extends Error {
  /** Whether to point at `--help` after the message (for mistakes in the command line itself). */
  readonly suggestHelp: boolean;

  constructor(message: string, options: { suggestHelp?: boolean } = {}) {
    super(message);
    this.name = new.target.name;
    this.suggestHelp = options.suggestHelp ?? false;
  }
}

/** A mistake in how the CLI was called or in what it was given. */
export class UsageError extends CliError {}

/** The Faultline server could not be reached, or refused or failed a request the CLI had to make. */
export class ServerError extends CliError {}

/** faultline itself got SIGINT or SIGTERM (Ctrl-C, a cancelled CI job) and stopped early. */
export class Interrupted extends CliError {}

/** The exit statuses every command shares. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** The short reason of a failed system call (ENOENT, EACCES…), or the error's message when it has no code. */
export function systemReason(error: unknown): string {
  if (error instanceof Error) return "code" in error ? String(error.code) : error.message;
  return String(error);
}
