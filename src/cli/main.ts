import { classifyCommand } from "./classify-command.ts";
import { runCommand } from "./run-command.ts";
import { CliError, EXIT, UsageError } from "./errors.ts";

export const USAGE = `Usage: faultline <command> [options]

Commands:
  classify [FILE|-]       classify captured MCP HTTP responses (a verdict with retry advice)
  run -- COMMAND...       run an MCP client against Faultline scenarios and judge it by the checks

Run 'faultline <command> --help' for a command's options.
`;

const COMMANDS: Readonly<Record<string, (args: string[]) => number | Promise<number>>> = {
  classify: classifyCommand,
  run: runCommand,
};

/** Runs the CLI on argv (without node and the script) and returns the exit status; reports errors on stderr. */
export async function main(argv: string[]): Promise<number> {
  try {
    const [command, ...args] = argv;
    if (command === "-h" || command === "--help") {
      process.stdout.write(USAGE);
      return EXIT.ok;
    }
    if (command === undefined) throw new UsageError("missing command: classify or run", { suggestHelp: true });
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
