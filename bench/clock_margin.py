"""Least time left on a clock after a move, over the games of a
kurier-tune journal played on a clock (bench/README.md, "Time
management"); both players are taken to have the first player's clock. Usage: python3 bench/clock_margin.py JOURNAL.jsonl"""
import json,sys
path=sys.argv[1]
lines=open(path).read().splitlines()
hdr=json.loads(lines[0])
clock_limit = hdr["settings"]["players"][0]["limit"]["clock"]
base = clock_limit["base_ms"]
inc = clock_limit["increment_ms"]
games=0; forfeits=0; minleft=10**9; maxmove=0; moves=0
terms={}
for l in lines[1:]:
    d=json.loads(l); games+=1
    terms[d['termination']]=terms.get(d['termination'],0)+1
    # side to move first: from FEN
    stm = 0 if d['fen'].split()[1]=='w' else 1
    clock=[base,base]
    for i,n in enumerate(d['notes']):
        side=(stm+i)%2
        clock[side]-=n['ms']; moves+=1; maxmove=max(maxmove,n['ms'])
        minleft=min(minleft,clock[side])
        clock[side]+=inc
print(f"games {games}, moves {moves}, terminations {terms}, least time left on a clock after a move {minleft} ms, longest move {maxmove} ms")
