#!/usr/bin/env python3
"""A Number Crush ai_player(K, board) as a process, for `gamebot crush --benchmark
--levels 'greedy,exec:python3 docs/examples/crush_ai_player.py'` (docs/ARENA.md).

Reads one line per swap, `K BOARD` (k, then the 100 digits row by row), and
prints one swap, `RCRC` (row and column of both cells). It plays the first swap
that lines up three equal digits, or `0001` when there is none: a baseline to
show the contract, not a strong player.
"""
import sys


def makes_run(cells, a, b):
    """Whether swapping cells a and b (indices 0..99) puts a digit in a run of 3."""
    cells = cells[:]
    cells[a], cells[b] = cells[b], cells[a]
    for at in (a, b):
        r, c = divmod(at, 10)
        for dr, dc in ((0, 1), (1, 0)):
            count = 1
            for sign in (1, -1):
                rr, cc = r + sign * dr, c + sign * dc
                while 0 <= rr < 10 and 0 <= cc < 10 and cells[rr * 10 + cc] == cells[at]:
                    count += 1
                    rr, cc = rr + sign * dr, cc + sign * dc
            if count >= 3:
                return True
    return False


def ai_player(k, board):
    cells = list(board)
    for a in range(100):
        for b in (a + 1, a + 10):
            if (b == a + 1 and a % 10 == 9) or b >= 100:
                continue
            if makes_run(cells, a, b):
                return f"{a:02d}{b:02d}"
    return "0001"


for line in sys.stdin:
    words = line.split()
    if len(words) == 2:
        print(ai_player(int(words[0]), words[1]), flush=True)
