#!/usr/bin/env python3
"""The book of ExCoCo endings that the engine drew by the fifty-move rule.

For every game of a values run's journal that ended by the fifty-move
rule, the position 100 plies before its end (where the last capture or
pawn move was made), found by replaying the game in `kurier` (UCI `d`);
each position once, in the journal's order. Positions listed in
`--exclude` (a book) are left out.

    python3 bench/fifty_move_book.py JOURNAL --kurier target/release/kurier \
        [--exclude BOOK] > BOOK
"""
import argparse
import json
import subprocess


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("journal")
    parser.add_argument("--kurier", default="target/release/kurier")
    parser.add_argument("--exclude", help="a book whose positions are left out")
    args = parser.parse_args()
    games = []
    with open(args.journal) as journal:
        for line in journal:
            record = json.loads(line)
            if record.get("termination") == "fifty-move rule":
                games.append(record)
    excluded = set()
    if args.exclude:
        with open(args.exclude) as book:
            excluded = {line.strip() for line in book if line.strip()}
    engine = subprocess.Popen([args.kurier], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)

    def send(command):
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    send("uci")
    send("setoption name UCI_Variant value excoco")
    positions = []
    for game in games:
        moves = game["moves"][: len(game["moves"]) - 100]
        send(f"position fen {game['fen']} moves {' '.join(moves)}".rstrip())
        send("d")
        while True:
            reply = engine.stdout.readline()
            if not reply:
                raise SystemExit("kurier stopped answering")
            if reply.startswith("info string fen "):
                break
            if "error" in reply:
                raise SystemExit(f"kurier refused a game's moves: {reply.strip()}")
        fen = reply[len("info string fen "):].strip()
        if fen not in excluded and fen not in positions:
            positions.append(fen)
    send("quit")
    print("\n".join(positions))


if __name__ == "__main__":
    main()
