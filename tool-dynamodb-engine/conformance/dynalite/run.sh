#!/usr/bin/env bash
# Runs the open-source dynalite test suite (its 17 API files, mocha) against the DynamoDB engine and compares the
# outcome with expected-failures.txt: exit 1 on a failure not listed there.
#
#   tool-dynamodb-engine/conformance/dynalite/run.sh [--source DIR] [--messages loose|exact] [--endpoint HOST:PORT]
#       [--files "query scan ..."] [--work DIR] [--write-new FILE] [--strict]
#
# --source    a dynalite git repository (bare or not) holding the pinned commit, or a source directory with
#             test/helpers.js. Without it the script asks the npm registry first (npm pack dynalite@VERSION) and
#             uses its tests if the package ships them (no published version does, up to 4.0.0), then clones the
#             pinned commit from GitHub.
# --messages  loose (default): an error's type and HTTP status must match, its message text is not compared
#             (DynamoDB's wording changed since the suite was written); exact: dynalite's assertions as written.
# --endpoint  run against a DynamoDB already listening there (DynamoDB Local, say) instead of starting the engine.
# --files     the test files to run, without .js (default: the 17 API files).
# --work      where to unpack and install the suite (default: a temporary directory, removed at exit).
# --write-new write the new failures (title TAB first line of the error) to FILE.
# --strict    also fail when a test listed in expected-failures.txt passes.
# DYNALITE_REPORT=FILE keeps mocha's JSON report there.
#
# Needs node and npm (the suite's dependencies come from the npm registry), git (with --source DIR of git or the
# clone) and a JDK 21 (scripts/with-jdk21) to build and start the engine. Nothing is written into the repository.
set -euo pipefail

DYNALITE_VERSION=3.2.1
DYNALITE_COMMIT=58d0955a5441ed294a92ce7bb109d7b2d88da1a1
DYNALITE_REPOSITORY=https://github.com/mhart/dynalite.git
API_FILES="batchGetItem batchWriteItem createTable deleteItem deleteTable describeTable describeTimeToLive getItem
listTables listTagsOfResource putItem query scan tagResource untagResource updateItem updateTable"

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
source_dir="" messages=loose endpoint="" files="$API_FILES" work="" write_new="" strict=""
while [ $# -gt 0 ]; do
  case "$1" in
    --source) source_dir=$2; shift 2 ;;
    --messages) messages=$2; shift 2 ;;
    --endpoint) endpoint=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --write-new) write_new=$2; shift 2 ;;
    --strict) strict=--strict; shift ;;
    *) echo "unknown argument: $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
case "$messages" in loose|exact) ;; *) echo "--messages is loose or exact" >&2; exit 2 ;; esac
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "$tool is needed to run the dynalite suite" >&2; exit 3; }
done

engine_pid=""
cleanup() {
  if [ -n "$engine_pid" ]; then kill "$engine_pid" 2>/dev/null || true; wait "$engine_pid" 2>/dev/null || true; fi
  if [ -n "${temp_work:-}" ]; then rm -rf "$temp_work"; fi
}
trap cleanup EXIT
if [ -z "$work" ]; then temp_work=$(mktemp -d); work=$temp_work; fi
mkdir -p "$work"
suite="$work/dynalite"
rm -rf "$suite"; mkdir -p "$suite"

# 1. the suite's source, at the pinned version
from_git() { # a git directory (bare or a work tree's .git) holding the pinned commit
  git --git-dir="$1" archive "$DYNALITE_COMMIT" | tar -x -C "$suite"
}
if [ -n "$source_dir" ]; then
  if [ -f "$source_dir/test/helpers.js" ]; then
    cp -R "$source_dir/." "$suite/"
  elif [ -d "$source_dir/.git" ]; then
    from_git "$source_dir/.git"
  else
    from_git "$source_dir"
  fi
else
  (cd "$work" && npm pack --silent "dynalite@$DYNALITE_VERSION" >/dev/null)
  if tar -tzf "$work/dynalite-$DYNALITE_VERSION.tgz" | grep -q '^package/test/helpers.js$'; then
    tar -xzf "$work/dynalite-$DYNALITE_VERSION.tgz" -C "$suite" --strip-components=1
  else
    echo "dynalite@$DYNALITE_VERSION on the npm registry has no test/ folder (no published version ships its tests);" >&2
    echo "cloning $DYNALITE_REPOSITORY at $DYNALITE_COMMIT instead" >&2
    if ! GIT_TERMINAL_PROMPT=0 timeout 120 git clone --quiet --bare "$DYNALITE_REPOSITORY" "$work/dynalite.git" 2>/dev/null; then
      echo "could not clone $DYNALITE_REPOSITORY: give a copy of it (git directory or source tree at" >&2
      echo "$DYNALITE_COMMIT, version $DYNALITE_VERSION) with --source DIR" >&2
      exit 3
    fi
    from_git "$work/dynalite.git"
  fi
fi
for f in $files helpers; do
  [ -f "$suite/test/$f.js" ] || { echo "the suite has no test/$f.js: is it dynalite $DYNALITE_VERSION?" >&2; exit 3; }
done

# 2. its dependencies, from the npm registry (mocha, should, aws4 and dynalite's own, which batchWriteItem.js uses);
# mocha 10 instead of the suite's mocha 6, which stops the whole run on Node 20 when a failing test calls done twice
node -e '
  const fs = require("fs"), file = process.argv[1], pkg = JSON.parse(fs.readFileSync(file, "utf8"))
  pkg.devDependencies.mocha = "10.8.2"; delete pkg.devDependencies.pegjs
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2))' "$suite/package.json"
(cd "$suite" && npm install --silent --omit=optional --ignore-scripts --no-package-lock --no-audit --no-fund >/dev/null)
DYNALITE_MESSAGES=$messages node "$here/patch-helpers.js" "$suite/test/helpers.js"

# 3. the engine on a free port, unless an endpoint is given
if [ -z "$endpoint" ]; then
  cp_file="$work/engine.classpath"
  mvn_args=(-B -q -pl tool-dynamodb-engine compile dependency:build-classpath -Dmdep.outputFile="$cp_file")
  (cd "$root" && { scripts/with-jdk21 mvn -o "${mvn_args[@]}" || scripts/with-jdk21 mvn "${mvn_args[@]}"; }) >&2
  java_home=$("$root/scripts/with-jdk21")
  "$java_home/bin/java" -cp "$root/tool-dynamodb-engine/target/classes:$(cat "$cp_file")" \
    com.multikey.dynamodb.server.EngineMain --port 0 >"$work/engine.out" 2>"$work/engine.err" &
  engine_pid=$!
  for _ in $(seq 1 300); do
    grep -q '^endpoint ' "$work/engine.out" 2>/dev/null && break
    kill -0 "$engine_pid" 2>/dev/null || { cat "$work/engine.err" >&2; echo "the engine did not start" >&2; exit 3; }
    sleep 0.1
  done
  endpoint=$(sed -n 's|^endpoint http://||p' "$work/engine.out")
  [ -n "$endpoint" ] || { echo "the engine did not say where it listens" >&2; exit 3; }
fi
echo "dynalite $DYNALITE_VERSION suite against $endpoint, messages compared $messages" >&2

# 4. the suite, with mocha's JSON reporter
test_files=()
for f in $files; do test_files+=("test/$f.js"); done
set +e
(cd "$suite" && env -u REMOTE ENGINE_HOST="${endpoint%:*}" ENGINE_PORT="${endpoint##*:}" AWS_REGION=us-east-1 \
  AWS_ACCESS_KEY_ID=dynalite AWS_SECRET_ACCESS_KEY=dynalite \
  node_modules/.bin/mocha --require should --reporter json -t 4s "${test_files[@]}" >"$work/report.json" 2>"$work/mocha.err")
set -e
grep -q '"stats"' "$work/report.json" || { cat "$work/mocha.err" >&2; echo "mocha wrote no report" >&2; exit 3; }
if [ -n "${DYNALITE_REPORT:-}" ]; then cp "$work/report.json" "$DYNALITE_REPORT"; fi

# 5. the outcome against the expected failures
node "$here/report.js" "$work/report.json" "$here/expected-failures.txt" ${write_new:+--write-new "$write_new"} $strict
