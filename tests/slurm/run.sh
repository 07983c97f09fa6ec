#!/usr/bin/env bash
# Runs the documented Slurm recipes on a real one-node Slurm and checks
# that the merged shards give exactly what one machine gives:
#
#   - the values driver of reports/README.md ("On several machines"),
#     taken from that file as written, with only N, B and ARGS made
#     small (two batches of two shards, courier at 300 nodes a move);
#     its merged report (table, fits, values files, plot) against the
#     report of the same run on one machine;
#   - the match recipe of docs/matches.md (the sbatch script with
#     `--shard ${SLURM_ARRAY_TASK_ID}/8`), as written but for 2 shards
#     and 4 pairs; the merged summary and games against one machine's.
#
# It installs Debian's slurm-wlm and munge when they are missing, writes
# a private one-node configuration (the node's own CPUs and memory, from
# `slurmd -C`) in $KURIER_SLURM_DIR (default /var/lib/kurier-slurm),
# starts munged, slurmctld and slurmd when they are not running, and
# stops at the end the daemons it started. A second run reuses the
# installation, the munge key and the configuration. Needs root (it
# starts the daemons as the munge and slurm users) and 2 CPUs (the
# recipes ask for --cpus-per-task=2; the tasks queue on one node).
#
# Usage, from anywhere:  tests/slurm/run.sh [OUT_DIR]
# Settings (environment):
#   KURIER_TUNE=PATH   the kurier-tune binary to test (default: builds
#                      target/release/kurier-tune)
#   KURIER_SLURM_DIR   the cluster's configuration, state and logs
# The runs, the Slurm output of every task and the differences stay in
# OUT_DIR (default: a new folder under /tmp), which the last line names.
# Exit status: 0 when everything matches, 1 on a difference, 2 when it
# cannot run.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
slurm_dir=${KURIER_SLURM_DIR:-/var/lib/kurier-slurm}
# Every Slurm command below talks to this private cluster only.
export SLURM_CONF="$slurm_dir/slurm.conf"

fail() { # EXIT_STATUS MESSAGE
    echo "slurm test: $2" >&2
    exit "$1"
}

out=${1:-$(mktemp -d /tmp/kurier-slurm.XXXXXX)}
mkdir -p "$out"
[ -z "$(ls -A "$out")" ] || fail 2 "$out is not empty: name a new or empty folder"
out="$(cd "$out" && pwd)"

[ "$(id -u)" = 0 ] || fail 2 "needs root: it installs Slurm and starts munged, slurmctld and slurmd"

# 1. Slurm and munge, installed once.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    echo "installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurm-wlm munge >/dev/null
fi

# One run at a time uses the cluster.
mkdir -p "$slurm_dir"
exec 9>"$slurm_dir/lock"
flock -n 9 || fail 2 "another run is using the cluster in $slurm_dir"

# The daemons this run started, stopped (by their process ids, the last
# started first) on exit, after cancelling whatever jobs this private
# cluster still has.
started=()
stop_daemons() {
    if scontrol ping >/dev/null 2>&1; then
        squeue -h -o %A | xargs -r scancel --quiet || true
    fi
    local index pid waited
    for ((index = ${#started[@]} - 1; index >= 0; index--)); do
        pid=${started[index]}
        kill "$pid" 2>/dev/null || true
        for waited in $(seq 1 50); do
            kill -0 "$pid" 2>/dev/null || break
            [ "$waited" = 50 ] && echo "slurm test: process $pid did not stop" >&2
            sleep 0.2
        done
    done
}
trap stop_daemons EXIT

# Whether PID_FILE names a running NAME.
alive() { # NAME PID_FILE
    [ -s "$2" ] && [ "$(cat "/proc/$(cat "$2")/comm" 2>/dev/null)" = "$1" ]
}

# Starts a daemon that writes PID_FILE, and notes it to stop on exit.
start_daemon() { # NAME PID_FILE COMMAND...
    local name=$1 pid_file=$2 waited
    shift 2
    rm -f "$pid_file"
    "$@"
    for waited in $(seq 1 50); do
        alive "$name" "$pid_file" && break
        [ "$waited" = 50 ] && fail 2 "$name did not start"
        sleep 0.2
    done
    started+=("$(cat "$pid_file")")
}

# 2. Munge: the key (the package makes one; else mungekey) and the daemon.
if [ ! -s /etc/munge/munge.key ]; then
    runuser -u munge -- mungekey --create
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    install -d -o munge -g munge -m 755 /run/munge
    start_daemon munged /run/munge/munged.pid runuser -u munge -- munged
    munge -n | unmunge >/dev/null || fail 2 "munged does not answer"
fi

# 3. The configuration: one node, this machine, as slurmd sees it.
install -d -o slurm -g slurm "$slurm_dir/state" "$slurm_dir/spool" "$slurm_dir/log"
host=$(hostname -s)
node=$(slurmd -C | head -n 1)
case "$node" in
NodeName="$host"\ *) ;;
*) fail 2 "slurmd -C describes no node named $host: $node" ;;
esac
# MinJobAge=5: `sbatch --wait` polls every 2 s when MinJobAge/2 is not
# above 2 (else its sleep grows to 8 and then 32 s); a finished job's
# record stays 5 s, longer than one poll.
cat >"$SLURM_CONF.new" <<EOF
# Written by Kurier's tests/slurm/run.sh: a one-node cluster on $host.
ClusterName=kurier-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd.pid
SlurmctldLogFile=$slurm_dir/log/slurmctld.log
SlurmdLogFile=$slurm_dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=5
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
if cmp -s "$SLURM_CONF.new" "$SLURM_CONF"; then
    rm "$SLURM_CONF.new"
else
    mv "$SLURM_CONF.new" "$SLURM_CONF"
    if alive slurmctld "$slurm_dir/slurmctld.pid"; then
        scontrol reconfigure
    fi
fi
# -c: no jobs or node states from an earlier run.
alive slurmctld "$slurm_dir/slurmctld.pid" ||
    start_daemon slurmctld "$slurm_dir/slurmctld.pid" slurmctld -c
alive slurmd "$slurm_dir/slurmd.pid" ||
    start_daemon slurmd "$slurm_dir/slurmd.pid" slurmd
for waited in $(seq 1 60); do
    state=$(sinfo -h -n "$host" -o %t 2>/dev/null || true)
    [ "$state" = idle ] && break
    [ "$waited" = 60 ] && fail 2 "the node is '$state', not idle, after 30 s (logs: $slurm_dir/log)"
    sleep 0.5
done
echo "$SECONDS s: slurm: $(sinfo -h -o '%P %D node(s) %c CPUs %m MB %t')"

# 4. The binary: the documented commands call ./target/release/kurier-tune
# from the folder they run in.
if [ -z "${KURIER_TUNE:-}" ]; then
    (cd "$root" && cargo build --release -p kurier-tuner >&2)
    KURIER_TUNE="$root/target/release/kurier-tune"
fi
KURIER_TUNE="$(cd "$(dirname "$KURIER_TUNE")" && pwd)/$(basename "$KURIER_TUNE")"
cd "$out"
mkdir -p target/release one
ln -s "$KURIER_TUNE" target/release/kurier-tune
ln -s "$root/data" data

# The fenced code block of FILE that has a line containing TEXT.
code_block() { # FILE TEXT
    awk -v text="$2" '
        /^```/ {
            if (inside) { if (found) { printf "%s", block; exit } inside = 0 }
            else { inside = 1; block = "" }
            next
        }
        inside { block = block $0 "\n"; if (index($0, text)) found = 1 }
    ' "$1"
}

# FILE with each line that starts with PREFIX replaced by LINE, which
# must happen exactly once for each pair.
replace_lines() { # FILE PREFIX LINE [PREFIX LINE ...]
    local file=$1
    shift
    while [ $# -gt 0 ]; do
        [ "$(awk -v prefix="$1" 'index($0, prefix) == 1' "$file" | wc -l)" = 1 ] ||
            fail 2 "$file: expected one line starting '$1' (the recipe changed; update tests/slurm/run.sh)"
        awk -v prefix="$1" -v line="$2" '
            index($0, prefix) == 1 { print line; next } { print }
        ' "$file" >"$file.new"
        mv "$file.new" "$file"
        shift 2
    done
}

# FILE with TEXT replaced by NEW, which must occur exactly once.
replace_text() { # FILE TEXT NEW
    [ "$(grep -o -F -- "$2" "$1" | wc -l)" = 1 ] ||
        fail 2 "$1: expected '$2' once (the recipe changed; update tests/slurm/run.sh)"
    awk -v text="$2" -v new="$3" '{
        at = index($0, text)
        if (at) $0 = substr($0, 1, at - 1) new substr($0, at + length(text))
        print
    }' "$1" >"$1.new"
    mv "$1.new" "$1"
}

differences=0
# Compares EXPECTED (one machine) with ACTUAL (the merged shards).
same() { # WHAT EXPECTED ACTUAL
    if [ ! -s "$2" ]; then
        echo "DIFFERENT: $1: nothing to compare, $2 is missing or empty"
        differences=1
    elif diff -u --label "one machine: $2" --label "merged shards: $3" "$2" "$3" >>differences; then
        echo "same: $1"
    else
        echo "DIFFERENT: $1 (diff in $out/differences)"
        diff -u "$2" "$3" | head -n 40 || true
        differences=1
    fi
}

# 5. The values driver, with a small run: two batches of two shards.
code_block "$root/reports/README.md" "sbatch --wait --array" >run-values.sh
[ -s run-values.sh ] || fail 2 "reports/README.md has no Slurm driver (a code block with 'sbatch --wait --array')"
# Courier: the cheapest variant whose two fits both give values at this
# size (the driver's folders keep their names, runs/excoco*).
values_args="--variant courier --nodes 300 --batches 2 --pairs 12 --games 40 --seed 1"
stem=courier-values
replace_lines run-values.sh 'N=' 'N=2; B=2' 'ARGS=' "ARGS=\"$values_args\""
echo "$SECONDS s: running the values driver of reports/README.md (2 batches of 2 shards)"
timeout 900 bash run-values.sh >run-values.out 2>run-values.err ||
    echo "the driver exited with status $? (output: $out/run-values.out, .err)"
echo "$SECONDS s: one machine: the same values run"
# shellcheck disable=SC2086 # ARGS is split as in the driver
./target/release/kurier-tune values $values_args --out one/values >one/values.out 2>one/values.err ||
    echo "the one-machine values run exited with status $? (output: $out/one/values.err)"
./target/release/kurier-tune report --run one/values --out one/reports >/dev/null 2>>one/values.err ||
    echo "the one-machine report exited with status $? (output: $out/one/values.err)"

# The reports, to the last digit but for the CPU time they measured.
cpu_free_json() { jq -S 'del(.budgets[].design_cpu_seconds, .budgets[].observational_cpu_seconds)' "$1"; }
cpu_free_text() { sed -E 's/[0-9.]+ CPU (s|seconds|hours)\b/_ CPU \1/g' "$1"; }
for file in $stem.toml $stem-observational.toml $stem-300.svg; do
    same "$file" "one/reports/$file" "reports/$file"
done
cpu_free_json "one/reports/$stem-results.json" >one/results.json || true
cpu_free_json "reports/$stem-results.json" >results.json || true
same "$stem-results.json (all but CPU seconds)" one/results.json results.json
cpu_free_text "one/reports/$stem.md" >one/report.md || true
cpu_free_text "reports/$stem.md" >report.md || true
same "$stem.md (all but CPU times)" one/report.md report.md
# The designed games in the journal, without their CPU time. (The
# observational positions are in datasets whose blocks are cut where
# the games were written: the same records, not the same bytes; their
# fit, in the results above, is the check.)
timeless_values_journal() { jq -c 'del(.cpu_ms)' "$1" | sort; }
timeless_values_journal one/values/journal.jsonl >one/values-journal.jsonl || true
timeless_values_journal runs/excoco/journal.jsonl >values-journal.jsonl || true
same "values journal (settings, designed games: moves and results)" one/values-journal.jsonl values-journal.jsonl

# 6. The match recipe of docs/matches.md: 2 shards of 4 pairs.
code_block "$root/docs/matches.md" "#SBATCH --array" >match.sh
[ -s match.sh ] || fail 2 "docs/matches.md has no Slurm match script (a code block with '#SBATCH --array')"
replace_text match.sh '--array=1-8' '--array=1-2'
replace_text match.sh '}/8 ' '}/2 '
replace_text match.sh '--pairs 2000' '--pairs 4'
echo "$SECONDS s: running docs/matches.md's Slurm match (2 shards)"
sbatch --wait match.sh >match.out 2>&1 || echo "sbatch exited with status $? (output: $out/match.out)"
./target/release/kurier-tune merge runs/rook-*/journal.jsonl --out runs/rook >>match.out 2>&1 ||
    echo "merge exited with status $? (output: $out/match.out)"
echo "$SECONDS s: one machine: the same match"
cp match.sh match-one.sh
# shellcheck disable=SC2016 # the recipe's text, not to be expanded
replace_text match-one.sh ' --shard ${SLURM_ARRAY_TASK_ID}/2' ''
# shellcheck disable=SC2016
replace_text match-one.sh '--out runs/rook-${SLURM_ARRAY_TASK_ID}' '--out one/rook'
bash match-one.sh >one/match.out 2>&1 || echo "the one-machine match exited with status $?"
# The games without their times (milliseconds a move, the date).
timeless_games() { jq -c 'select(.id) | del(.date) | .notes |= map(del(.ms))' "$1" | sort; }
same "match summary.json" one/rook/summary.json runs/rook/summary.json
timeless_games one/rook/journal.jsonl >one/games.jsonl || true
timeless_games runs/rook/journal.jsonl >games.jsonl || true
same "match games (moves, scores, depths, results)" one/games.jsonl games.jsonl

if [ "$differences" != 0 ]; then
    echo "the Slurm task outputs: $out/slurm-*.out"
    fail 1 "the merged shards differ from one machine; see $out/differences"
fi
echo "$SECONDS s: all same: the documented Slurm recipes merge into the one-machine results ($out)"
