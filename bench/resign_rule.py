#!/usr/bin/env python3
"""What a score rule (kurier-tune values --resign-score T --resign-moves M)
would have done to the games of a values run played without it.

A values journal keeps each move's score (the mover's search, centipawns
from its side). Games at a fixed node count are deterministic, so the run
played again with the rule is the same games, each cut at the first ply
after which the last 2*M scores all give one side at least T
(tuner/tests/score_record.rs checks this on played games). One
difference: a score rule replaces the default one (a mate both sides'
searches see for 2 moves each), so a game the default rule ended may,
under a rule of more than 2 moves, go on a few plies more with the same
result; it is kept as recorded. For each rule
the table gives the games the rule ends early, the plies and CPU time
left (each cut game's CPU time shared out by its moves' wall times), and
the results it changes: a win turned into a loss (reversal) or a draw
turned into a win, by how the draw came.

    python3 bench/resign_rule.py JOURNAL[.xz] [--scores 1000,1500] [--moves 4]
    python3 bench/resign_rule.py JOURNAL[.xz] --write 1500 4 FOLDER

--write makes FOLDER/journal.jsonl, the run as the rule would have left
it, for `kurier-tune report --run FOLDER` (its fit and efficiency).
"""

import argparse
import collections
import json
import lzma
import os
import sys


def read_journal(path):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        lines = f.read().splitlines()
    header = json.loads(lines[0])
    games = [json.loads(line) for line in lines[1:] if line.strip()]
    missing = [g for g in games if len(g.get("scores", [])) != len(g["moves"])]
    if missing:
        sys.exit(f"{path}: {len(missing)} games without a score for every move "
                 "(a journal older than the scores)")
    return header, games


def white_view(game):
    white_first = game["fen"].split()[1] == "w"
    return [None if s is None else (s if (ply % 2 == 0) == white_first else -s)
            for ply, s in enumerate(game["scores"])]


def rule_fires(game, score, moves):
    """(plies, result) where the rule ends the game before its own end."""
    view, span = white_view(game), 2 * moves
    for plies in range(span, len(view)):
        last = view[plies - span:plies]
        for result, sign in (("1-0", 1), ("0-1", -1)):
            if all(s is not None and sign * s >= score for s in last):
                return plies, result
    return None


def cut(game, plies, result):
    share = sum(game["move_ms"][:plies]) / max(1, sum(game["move_ms"]))
    return dict(game, moves=game["moves"][:plies], scores=game["scores"][:plies],
                move_ms=game["move_ms"][:plies], result=result,
                termination="resign adjudication", cpu_ms=round(game["cpu_ms"] * share))


def judged(games, score, moves):
    for game in games:
        fired = rule_fires(game, score, moves)
        yield (game, None) if fired is None else (game, cut(game, *fired))


def table(games, scores, moves):
    plies = sum(len(g["moves"]) for g in games)
    cpu = sum(g["cpu_ms"] for g in games)
    print(f"{len(games)} games, {plies / len(games):.1f} plies and "
          f"{cpu / len(games) / 1000:.2f} CPU s a game\n")
    print("| rule (cp, moves) | ended early | plies a game | fewer plies | fewer CPU s "
          "| results changed | reversals | draws to wins (fifty-move, repetition, other) |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for score in scores:
        early, left_plies, left_cpu = 0, 0, 0
        changes = collections.Counter()
        for game, short in judged(games, score, moves):
            after = short or game
            left_plies += len(after["moves"])
            left_cpu += after["cpu_ms"]
            if short is None:
                continue
            early += 1
            if short["result"] != game["result"]:
                kind = "reversal" if game["result"] != "1/2-1/2" else game["termination"]
                changes[kind] += 1
        changed = sum(changes.values())
        other = changed - changes["reversal"] - changes["fifty-move rule"] \
            - changes["threefold repetition"]
        print(f"| {score}, {moves} | {early} | {left_plies / len(games):.1f} "
              f"| {plies / left_plies:.3f}x | {cpu / left_cpu:.3f}x | {changed} "
              f"({100 * changed / len(games):.1f}%) | {changes['reversal']} "
              f"| {changes['fifty-move rule']}, {changes['threefold repetition']}, {other} |")


def write(header, games, score, moves, folder):
    header["settings"]["settings"]["ending"]["resign"] = {"moves": moves, "score": score}
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "journal.jsonl"), "w") as f:
        f.write(json.dumps(header, separators=(",", ":")) + "\n")
        for game, short in judged(games, score, moves):
            f.write(json.dumps(short or game, separators=(",", ":")) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("journal")
    parser.add_argument("--scores", default="1000,1500,2000,3000",
                        help="thresholds, centipawns (default 1000,1500,2000,3000)")
    parser.add_argument("--moves", type=int, default=4, help="moves of each side (default 4)")
    parser.add_argument("--write", nargs=3, metavar=("SCORE", "MOVES", "FOLDER"))
    args = parser.parse_args()
    header, games = read_journal(args.journal)
    if args.write:
        write(header, games, int(args.write[0]), int(args.write[1]), args.write[2])
    else:
        table(games, [int(s) for s in args.scores.split(",")], args.moves)


if __name__ == "__main__":
    main()
