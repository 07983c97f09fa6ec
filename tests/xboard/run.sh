#!/usr/bin/env bash
# Plays Kurier against itself under the real XBoard (in a virtual X
# server) at each 12x8 variant, from the variant's start position, and
# fails if XBoard's debug log shows a forfeit, a false claim, an illegal
# move, an engine error or a loss on time, or if Kurier, given the game's
# moves afresh, does not call the game's end as XBoard recorded it.
#
# Then two games that open with the special moves of courier-moderno and
# enhanced-courier (scripted_opening.py plays them for both sides).
#
# Needs xboard, xvfb-run and python3 (Debian: apt-get install -y xboard
# xvfb python3). About 5 minutes; not part of .ci/run.
# Usage, from anywhere:  tests/xboard/run.sh [OUT_DIR]
# Settings (environment):
#   KURIER=PATH    the engine to test (default: builds target/release/kurier)
#   VARIANTS="..." XBoard names to play from the start (default below;
#                  setting it leaves out the special-move games)
#   DEPTHS="..."   one game per search depth, both sides (default "3 4 5")
# Each game leaves its debug log, PGN and engine replay in OUT_DIR
# (default: a new folder under /tmp), which the last line names.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
variants=${VARIANTS:-"kurier-courier kurier-courier-moderno enhanced-courier"}
depths=${DEPTHS:-"3 4 5"}
out=${1:-$(mktemp -d /tmp/kurier-xboard.XXXXXX)}
mkdir -p "$out"

xboard=$(command -v xboard || true)
[ -z "$xboard" ] && [ -x /usr/games/xboard ] && xboard=/usr/games/xboard
if [ -z "$xboard" ] || ! command -v xvfb-run >/dev/null || ! command -v python3 >/dev/null; then
    echo "needs xboard, xvfb-run and python3 (Debian: apt-get install -y xboard xvfb python3)" >&2
    exit 2
fi
if [ -z "${KURIER:-}" ]; then
    (cd "$root" && cargo build --release -p kurier-engine >&2)
    KURIER="$root/target/release/kurier"
fi

# The lines of XBoard's debug log that mean something went wrong.
problems='Forfeit|False (win|draw|illegal-move) claim|[Ii]llegal move|Error \(|Bad FEN|wins on time|not supported by|did not send setup|Recompile|Unknown (variant|wild)'

# Kurier's own verdict on the game: the result it announces when given
# the game's moves in force mode and asked to move ("" if it plays on).
kurier_verdict() { # VARIANT MOVES_FILE
    {
        printf 'xboard\nprotover 2\nnew\nvariant %s\nforce\nsd 1\n' "$1"
        sed 's/^/usermove /' "$2"
        printf 'go\n'
    } | timeout 60 "$KURIER" xboard | grep -E '^(1-0|0-1|1/2-1/2) \{' | head -n 1 || true
}

failed=0
# One game under XBoard: NAME VARIANT DEPTH [OPENING]. With OPENING
# (moves, comma-separated) both engines play it first through
# scripted_opening.py, then Kurier plays on.
play() {
    local name=$1 variant=$2 depth=$3 opening=${4:-}
    local game="$out/$name" engine="$KURIER xboard"
    [ -n "$opening" ] && engine="python3 $root/tests/xboard/scripted_opening.py $opening $KURIER xboard"
    mkdir -p "$game/home"
    # A home of its own: XBoard reads and writes no ~/.xboardrc, and
    # keeps the system settings (legality testing, claim testing, mate
    # and material adjudication on).
    HOME="$game/home" timeout 900 xvfb-run -a "$xboard" \
        -fcp "$engine" -scp "$engine" -variant "$variant" \
        -matchGames 1 -matchPause 100 -popupExitMessage false \
        -searchDepth "$depth" -tc 20 -xponder -autoCallFlag true \
        -debug -nameOfDebugFile "$game/debug.log" -saveGameFile "$game/game.pgn" \
        >"$game/xboard.out" 2>&1 || echo "xboard exited with status $?" >>"$game/problems"
    local log="$game/debug.log"
    if [ ! -s "$log" ]; then
        echo "no debug log" >>"$game/problems"
        touch "$log"
    fi
    grep -a -E "$problems" "$log" >>"$game/problems" || true
    grep -a -E '^[0-9]+ <(first |second): move ' "$log" | sed 's/.*: move //' >"$game/moves"
    local result reason verdict plies
    result=$(grep -a -o '^\[Result "[^"]*"\]' "$game/game.pgn" 2>/dev/null | head -n 1 | cut -d'"' -f2 || true)
    reason=$(grep -a -o '^GameEnds([0-9]*, [^,]*' "$log" | grep -v '(null)' | head -n 1 | sed 's/^GameEnds([0-9]*, //' || true)
    verdict=$(kurier_verdict "$variant" "$game/moves")
    echo "$verdict" >"$game/kurier-verdict"
    case "$result" in
        1-0 | 0-1 | 1/2-1/2) ;;
        *) echo "no finished game in the PGN (result '$result')" >>"$game/problems" ;;
    esac
    if [ "${verdict%% *}" != "$result" ]; then
        echo "XBoard recorded '$result' ($reason), Kurier says '${verdict:-play on}'" >>"$game/problems"
    fi
    plies=$(wc -l <"$game/moves")
    printf '%-38s %-7s %3d plies  XBoard: %s; Kurier: %s\n' \
        "$name" "${result:-none}" "$plies" "${reason:-?}" "${verdict:-play on}"
    if [ -s "$game/problems" ]; then
        failed=1
        sed 's/^/    PROBLEM: /' "$game/problems" | head -n 5
    fi
}

for variant in $variants; do
    for depth in $depths; do
        play "$variant-depth$depth" "$variant" "$depth"
    done
done
# The special moves XBoard must take from Kurier and give back: castling
# on both wings, first-move leaps of the elephants, en passant
# (courier-moderno); en passant, woody-rook leaps, a bent gryphon move
# (enhanced-courier).
if [ -z "${VARIANTS:-}" ]; then
    play kurier-courier-moderno-special-moves kurier-courier-moderno 3 \
        e2e4,h7h5,d2d3,h8h7,b1c3,h7h6,c1a3,i8h7,d1e2,j8j6,e1d2,k8l6,f1c1,g8j8,e4e5,d7d5,e5d6
    play enhanced-courier-special-moves enhanced-courier 3 \
        e2e4,a7a5,e4e5,d7d5,e5d6,h8h6,h2h4,b7b6,h1h3,b6b5,g1h2,b5b4,h2i5
fi
echo "games, debug logs and PGNs: $out"
if [ "$failed" != 0 ]; then
    echo "FAILED"
    exit 1
fi
echo "ok: no forfeit, false claim, illegal move, engine error or disagreement"
