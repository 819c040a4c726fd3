import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { systemReason, UsageError } from "./errors.ts";

/** Where `faultline run` looks for its configuration when --config is not given: the current folder. */
export const DEFAULT_CONFIG = "faultline.json";

const ScenarioEntrySchema = z.strictObject({
  id: z.string().min(1).describe("a scenario id from GET /api/scenarios, e.g. errors.http_status_sequence"),
  params: z.record(z.string(), z.unknown()).optional().describe("the scenario's params (default: its defaults)"),
});

/** faultline.json: the same choices as `faultline run`'s flags; a flag given on the command line wins over the file. */
export const RunConfigSchema = z.strictObject({
  $schema: z.string().optional().describe("where editors find this schema: the package's dist/faultline.schema.json"),
  server: z.url({ protocol: /^https?$/ }).optional().describe("the Faultline server (--server)"),
  scenarios: z
    .union([z.literal("all"), z.array(ScenarioEntrySchema).min(1)])
    .describe('the scenarios to run (--scenario), or "all" (--all)'),
  command: z.array(z.string()).min(1).describe('the client command, no shell (after --), e.g. ["node", "client.mjs"]'),
  timeout: z.number().positive().max(86_400).optional().describe("seconds the command may run per scenario (--timeout)"),
  reports: z
    .strictObject({
      junit: z.string().min(1).optional().describe("--junit FILE"),
      markdown: z.string().min(1).optional().describe("--markdown FILE"),
      json: z.string().min(1).optional().describe("--json FILE"),
    })
    .optional(),
  ignoreExit: z.boolean().optional().describe("--ignore-exit"),
  allowUnexercised: z.boolean().optional().describe("--allow-unexercised"),
  allowUnjudged: z.boolean().optional().describe("--allow-unjudged"),
  keep: z.boolean().optional().describe("--keep"),
  restartAfterTask: z.boolean().optional().describe("--restart-after-task"),
});
export type RunConfig = z.infer<typeof RunConfigSchema>;

/** A zod path as a reader writes it: scenarios[0].params. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`)).join("") || "(the file)";
}

/**
 * One line per broken rule. A union (scenarios: "all" or a list) says only "Invalid input"; the branch that got
 * furthest into the value (the longest path) says what is wrong inside it, e.g. scenarios[0].params.
 */
function issueLines(issue: z.core.$ZodIssue, base: readonly PropertyKey[]): string[] {
  const path = [...base, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const depth = (branch: z.core.$ZodIssue[]) => Math.max(...branch.map((i) => i.path.length));
    const best = issue.errors.reduce((a, b) => (depth(b) > depth(a) ? b : a));
    if (depth(best) > 0) return best.flatMap((inner) => issueLines(inner, path));
  }
  return [`  ${pathText(path)}: ${issue.message} (${issue.code})`];
}

/** Parses a config file's text; every mistake names the file, the path in it and the rule broken. */
export function parseRunConfig(text: string, file: string): RunConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = RunConfigSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.flatMap((issue) => issueLines(issue, []));
  throw new UsageError(`${file} is not a valid faultline.json:\n${lines.join("\n")}`);
}

/** The config named by --config (which must exist), else ./faultline.json when there is one, else undefined. */
export function readRunConfig(option: string | undefined): RunConfig | undefined {
  const file = option ?? DEFAULT_CONFIG;
  if (option === undefined && !existsSync(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`--config: cannot read ${file}: ${systemReason(error)}`);
  }
  return parseRunConfig(text, file);
}
