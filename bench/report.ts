/** The bench's three outputs, from one record: a table on stdout, bench/results.json and bench/RESULTS.md. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import type { PathProfile } from "./profile-cases.ts";
import { ROOT } from "./servers.ts";

export interface Goal {
  atLeast?: number;
  atMost?: number;
}

export interface Side {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  /** Non-2xx answers, errors and timeouts over all rounds. */
  bad: number;
}

export interface Figure {
  name: string;
  metric: string;
  goal: Goal;
  /** Median over the rounds of the per-round ratio. */
  ratio: number;
  side: Side;
  baseline: Side;
}

export interface Measure {
  name: string;
  value: number;
  unit: string;
  goal?: Goal;
  note?: string;
}

interface Record_ {
  settings: Record<string, unknown>;
  figures: Figure[];
  measures: Measure[];
  profiles: Record<string, PathProfile>;
}

// Read from node_modules: some packages' exports map package.json to a nested file without a version.
const version = (pkg: string) => (JSON.parse(readFileSync(join(ROOT, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;

function machine() {
  const cpu = cpus();
  return { cpu: cpu[0]?.model ?? "unknown", cores: cpu.length, memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10, loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100) };
}

function versions() {
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {}
  return {
    faultline: commit,
    node: process.versions.node,
    workerd: version("workerd"),
    wrangler: version("wrangler"),
    "@modelcontextprotocol/server (reference server)": version("@modelcontextprotocol/server"),
    "@modelcontextprotocol/node": version("@modelcontextprotocol/node"),
    autocannon: version("autocannon"),
  };
}

const goalText = (goal: Goal | undefined) => (goal?.atLeast !== undefined ? `≥ ${goal.atLeast}` : goal?.atMost !== undefined ? `≤ ${goal.atMost}` : "");
const met = (value: number, goal: Goal | undefined) =>
  goal?.atLeast !== undefined ? (value >= goal.atLeast ? "met" : "MISSED") : goal?.atMost !== undefined ? (value <= goal.atMost ? "met" : "MISSED") : "";
const sideText = (s: Side) => `${Math.round(s.rps)} req/s, p50 ${s.p50} / p99 ${s.p99} ms, mean ${s.mean.toFixed(2)} ms${s.bad ? `, ${s.bad} failed` : ""}`;

function markdown(record: Record_ & { machine: ReturnType<typeof machine>; versions: Record<string, string>; date: string }): string {
  const lines = [
    "# Benchmark results",
    "",
    `Written by \`npm run bench\` (bench/run.ts) on ${record.date}; every run rewrites this file. Ratios only: the machine is shared.`,
    "",
    `Machine: ${record.machine.cpu}, ${record.machine.cores} cores, ${record.machine.memoryGiB} GiB; load average at the end ${record.machine.loadAverageAtEnd.join(" / ")}.`,
    "",
    `Versions: ${Object.entries(record.versions).map(([k, v]) => `${k} ${v}`).join(", ")}.`,
    "",
    `Settings: ${Object.entries(record.settings).map(([k, v]) => `${k}=${v}`).join(", ")}. Each ratio is the median of the per-round ratios over ${record.settings.runs} rounds; each round measures every side of its group once, in reversed order every other round. Load: autocannon on loopback.`,
    "",
    "## Ratios",
    "",
    "| figure | ratio | goal | | side | baseline |",
    "|---|---|---|---|---|---|",
    ...record.figures.map((f) => `| ${f.name} | **${f.ratio.toFixed(2)}×** (${f.metric}) | ${goalText(f.goal)} | ${met(f.ratio, f.goal)} | ${f.side.label}: ${sideText(f.side)} | ${f.baseline.label}: ${sideText(f.baseline)} |`),
    "",
    "## Measures",
    "",
    "| measure | value | goal | | note |",
    "|---|---|---|---|---|",
    ...record.measures.map((m) => `| ${m.name} | ${round(m.value)} ${m.unit} | ${goalText(m.goal)} | ${met(m.value, m.goal)} | ${m.note ?? ""} |`),
  ];
  const profiles = Object.entries(record.profiles);
  if (profiles.length) {
    lines.push("", "## CPU profiles (workerd's inspector, under load)", "", "Self: samples whose innermost frame is the function. Total: samples with the bundle's function anywhere on the stack.", "");
    for (const [path, p] of profiles) {
      lines.push(`### ${path} (${Math.round(p.rps)} req/s while profiled)`, "", "| self % | function | | total % | bundle function |", "|---|---|---|---|---|");
      for (let i = 0; i < Math.max(p.self.length, p.total.length); i++) {
        const s = p.self[i];
        const t = p.total[i];
        lines.push(`| ${s ? s.selfPercent.toFixed(1) : ""} | ${s ? `\`${s.fn}\`` : ""} | | ${t ? t.totalPercent.toFixed(1) : ""} | ${t ? `\`${t.fn}\`` : ""} |`);
      }
      lines.push("");
    }
  }
  return `${lines.join("\n")}\n`;
}

const round = (n: number) => (Number.isInteger(n) || Math.abs(n) >= 100 ? Math.round(n).toString() : n.toFixed(2));

export async function writeReports(record: Record_): Promise<void> {
  const full = { date: new Date().toISOString(), machine: machine(), versions: versions(), ...record };
  console.log("\nfigure | ratio | goal | status");
  for (const f of full.figures) console.log(`${f.name} | ${f.ratio.toFixed(3)}× (${f.metric}) | ${goalText(f.goal)} | ${met(f.ratio, f.goal)}   [${sideText(f.side)} vs ${sideText(f.baseline)}]`);
  console.log("\nmeasure | value | goal | status");
  for (const m of full.measures) console.log(`${m.name} | ${round(m.value)} ${m.unit} | ${goalText(m.goal)} | ${met(m.value, m.goal)}${m.note ? `   [${m.note}]` : ""}`);
  for (const [path, p] of Object.entries(full.profiles)) {
    console.log(`\nprofile: ${path}`);
    for (const h of p.self.slice(0, 8)) console.log(`  self ${h.selfPercent.toFixed(1)}%  ${h.fn}`);
    for (const h of p.total.slice(0, 8)) console.log(`  total ${h.totalPercent.toFixed(1)}%  ${h.fn}`);
  }
  await writeFile(join(ROOT, "bench", "results.json"), `${JSON.stringify(full, null, 2)}\n`);
  await writeFile(join(ROOT, "bench", "RESULTS.md"), markdown(full) + keptSections());
}

/** Sections other benches wrote by hand into RESULTS.md (from KEPT_HEADING on), carried over by every run. */
export const KEPT_HEADING = "## Kept across runs";

function keptSections(): string {
  let text = "";
  try {
    text = readFileSync(join(ROOT, "bench", "RESULTS.md"), "utf8");
  } catch {
    return "";
  }
  const at = text.indexOf(`\n${KEPT_HEADING}\n`);
  return at < 0 ? "" : `\n${text.slice(at + 1)}`;
}
