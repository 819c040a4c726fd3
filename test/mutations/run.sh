#!/usr/bin/env bash
# Mutation check: applies each patch in test/mutations/ in turn (each breaks one rule on purpose), runs the test
# files named on its "Tests:" line, requires them to FAIL, and reverts the patch. Exits non-zero when a patch does
# not apply (the code moved: re-base the patch) or when its tests still pass (the rule is unguarded).
# Usage: test/mutations/run.sh [patch ...]   (default: every patch)
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"
export CLOUDFLARE_CF_FETCH_ENABLED=false

patches=("$@")
[[ ${#patches[@]} -eq 0 ]] && patches=(test/mutations/*.patch)

applied=""
revert() { [[ -n "$applied" ]] && git apply -R "$applied" && applied=""; }
trap revert EXIT INT TERM

not_applied=() survived=() killed=()
for patch in "${patches[@]}"; do
  name=$(basename "$patch" .patch)
  tests=$(sed -n 's/^Tests: //p' "$patch" | head -1)
  if [[ -z "$tests" ]]; then
    echo "MUTATION $name: no 'Tests:' line" >&2
    not_applied+=("$name")
    continue
  fi
  if ! git apply --check "$patch" 2>/dev/null; then
    echo "MUTATION $name: PATCH DID NOT APPLY ($patch) — the code it breaks has moved; re-base the patch" >&2
    not_applied+=("$name")
    continue
  fi
  git apply "$patch" && applied="$patch"
  # shellcheck disable=SC2086
  # A test the mutation makes hang fails at the timeout instead of holding the run (a hang is no pass).
  if node --test --test-concurrency=2 --test-timeout=300000 $tests >/tmp/mutation-"$name".log 2>&1; then
    echo "MUTATION $name: SURVIVED — $tests still pass with the rule broken ($(sed -n 's/^Breaks: //p' "$patch"))" >&2
    survived+=("$name")
  elif grep -q "No Chromium at" /tmp/mutation-"$name".log; then
    # A test that could not start is no kill: the rule was never tried.
    echo "MUTATION $name: NOT RUN — its browser tests found no Chromium (install it first, as .ci/run does)" >&2
    not_applied+=("$name")
  else
    echo "mutation $name: killed ($(grep -c '^not ok' /tmp/mutation-"$name".log) failing tests in $tests)"
    killed+=("$name")
  fi
  revert
done

echo "mutations: ${#killed[@]} killed, ${#survived[@]} survived, ${#not_applied[@]} did not apply or could not run"
[[ ${#survived[@]} -eq 0 && ${#not_applied[@]} -eq 0 ]]
