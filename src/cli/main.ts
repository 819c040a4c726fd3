import { classifyCommand } from "./classify-command.ts";
import { CliError, EXIT, UsageError } from "./errors.ts";
import { version } from "./package-root.ts";
import { checksCommand, journalCommand, sessionsCommand } from "./read-commands.ts";
import { runCommand } from "./run-command.ts";
import { startCommand } from "./start-command.ts";

export const USAGE = `Usage: faultline <command> [options]

Commands:
  start                   serve Faultline on 127.0.0.1:8787 (alias: serve)
  run -- COMMAND...       run an MCP client against Faultline scenarios and judge it by the checks
                          (or: faultline run, with a faultline.json in the current folder)
  sessions                list the server's sessions
  checks ID               print a session's checks (exit 1 when one failed)
  journal ID              print a session's journal
  classify [FILE|-]       classify captured MCP HTTP responses (a verdict with retry advice)

The commands that talk to a server use --server URL, else $FAULTLINE_SERVER, else
http://127.0.0.1:8787. 'faultline --version' prints the version.
Run 'faultline <command> --help' for a command's options.
`;

const COMMANDS: Readonly<Record<string, (args: string[]) => number | Promise<number>>> = {
  start: startCommand,
  serve: startCommand,
  run: runCommand,
  sessions: sessionsCommand,
  checks: checksCommand,
  journal: journalCommand,
  classify: classifyCommand,
};

/** Runs the CLI on argv (without node and the script) and returns the exit status; reports errors on stderr. */
export async function main(argv: string[]): Promise<number> {
  try {
    const [command, ...args] = argv;
    if (command === "-h" || command === "--help") {
      process.stdout.write(USAGE);
      return EXIT.ok;
    }
    if (command === "-v" || command === "--version") {
      process.stdout.write(`${version()}\n`);
      return EXIT.ok;
    }
    if (command === undefined) throw new UsageError(`missing command: ${Object.keys(COMMANDS).join(", ")}`, { suggestHelp: true });
    const handler = COMMANDS[command];
    if (!handler) throw new UsageError(`unknown command: ${command}`, { suggestHelp: true });
    return await handler(args);
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`faultline: ${error.message}\n`);
      if (error.suggestHelp) process.stderr.write("Run 'faultline --help' for usage.\n");
    } else {
      process.stderr.write(`faultline: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    return EXIT.usage;
  }
}
