#!/usr/bin/env python3
"""An XBoard engine that plays a fixed opening, then hands over to Kurier.

    scripted_opening.py MOVE,MOVE,... KURIER_COMMAND...

Both engines of an XBoard match can run this with the same moves: each
plays the moves of the side it has while the game is within the list,
then lets Kurier (which has followed every move, in force mode) think.
So XBoard checks the opening's special moves (castling, first-move
leaps, en passant) against its own rules, and Kurier takes them back from
XBoard as the opponent's moves. Everything else passes through.
"""

import subprocess
import sys
import threading


def main():
    script = sys.argv[1].split(",")
    kurier = subprocess.Popen(
        sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    lock = threading.Lock()

    def to_gui(line):
        with lock:
            sys.stdout.write(line if line.endswith("\n") else line + "\n")
            sys.stdout.flush()

    def to_kurier(line):
        kurier.stdin.write(line + "\n")
        kurier.stdin.flush()

    def relay():
        for line in kurier.stdout:
            to_gui(line)

    threading.Thread(target=relay, daemon=True).start()

    plies = 0
    force = True  # XBoard's view: the engine plays neither side
    kurier_forced = False  # Kurier held in force mode by this script

    def kurier_thinks():
        nonlocal kurier_forced
        to_kurier("go")
        kurier_forced = False

    def our_turn():
        """Plays the scripted move, or lets Kurier think past the script."""
        nonlocal plies, kurier_forced
        if plies < len(script):
            to_kurier("force")
            kurier_forced = True
            to_kurier("usermove " + script[plies])
            to_gui("move " + script[plies])
            plies += 1
        else:
            kurier_thinks()

    for line in sys.stdin:
        line = line.strip()
        words = line.split()
        command = words[0] if words else ""
        if command == "new":
            plies, force, kurier_forced = 0, False, False
            to_kurier(line)
        elif command == "setboard":
            plies = 0
            to_kurier(line)
        elif command == "force":
            force, kurier_forced = True, False
            to_kurier(line)
        elif command == "go":
            force = False
            to_kurier("force")
            kurier_forced = True
            our_turn()
        elif command == "usermove" and len(words) == 2:
            plies += 1
            if force:
                to_kurier(line)
            else:
                to_kurier("force")
                kurier_forced = True
                to_kurier(line)
                our_turn()
        else:
            to_kurier(line)
            if command == "quit":
                break
    kurier.wait(timeout=10)


if __name__ == "__main__":
    main()
