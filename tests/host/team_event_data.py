"""A generated team event as its TRF26 file, written the way a pairing program writes one, for the
team tests: teams of fictional players, a round-robin schedule (circle method), the results of the
rounds played, forfeited matches (330) and boards a team did not field.

The test decides every result (`outcome`); the file is written from those decisions with the TRF26
column layout (the spec's, not Flagfall's writer), so reading it back is a test of the reader.
"""
from __future__ import annotations

COLOURS = "WBWB"          # 352: the first-named team has White on boards 1 and 3
CODE = {"W": "1", "D": "=", "L": "0"}
OTHER = {"W": "L", "D": "D", "L": "W"}
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, " ": 0.0}


def put(line: str, column: int, text: str) -> str:
    line = line.ljust(column - 1 + len(text))
    return line[:column - 1] + text + line[column - 1 + len(text):]


def schedule(n_teams: int, rounds: int) -> list[list[tuple[int, int]]]:
    """Round-robin pairs (home, away) per round, teams 1..n (circle method, team 1 fixed)."""
    teams = list(range(1, n_teams + 1))
    out = []
    for r in range(rounds):
        pairs = []
        for i in range(n_teams // 2):
            a, b = teams[i], teams[n_teams - 1 - i]
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        out.append(pairs)
        teams = [teams[0], teams[-1]] + teams[1:-1]
    return out


def player_name(team: int, board: int) -> str:
    return "Player%d%d, Team%d" % (team, board, team)


def team_name(team: int) -> str:
    return "Club %s" % "ABCDEFGHIJKLMNOP"[team - 1]


def team_trf(n_teams: int, size: int, paired: int, outcomes: dict, forfeited: dict, unfielded: set,
             name: str = "Flagfall Team Cup 2026") -> str:
    """The TRF26 text with rounds 1..paired paired and the rounds in `outcomes` played.

    outcomes: {(round, board_of_match, home, away): "W"/"D"/"L" (home's result)} for every played
    board; forfeited: {round: (home, away, "+-"/"-+"/"--")} a match forfeited whole (330);
    unfielded: {(round, team, board)} boards a team did not field (the opponent wins by forfeit)."""
    rounds = schedule(n_teams, paired)
    players: dict[int, list[str]] = {}      # start rank -> per-round 10-column fields
    rank = {(t, b): (t - 1) * size + b for t in range(1, n_teams + 1) for b in range(1, size + 1)}
    cells: dict[tuple[int, int], str] = {}
    for r, pairs in enumerate(rounds, 1):
        for home, away in pairs:
            f = forfeited.get(r)
            if f is not None and (f[0], f[1]) == (home, away):
                hc, ac = {"+-": ("+", "-"), "-+": ("-", "+"), "--": ("-", "-")}[f[2]]
                for b in range(1, size + 1):
                    cells[(rank[(home, b)], r)] = "0000 - %s" % hc
                    cells[(rank[(away, b)], r)] = "0000 - %s" % ac
                continue
            for b in range(1, size + 1):
                h, a = rank[(home, b)], rank[(away, b)]
                if (r, home, b) in unfielded or (r, away, b) in unfielded:
                    absent, present = (h, a) if (r, home, b) in unfielded else (a, h)
                    cells[(present, r)] = "0000 - +"
                    cells[(absent, r)] = "0000 - -"
                    continue
                home_white = COLOURS[b - 1] == "W"
                res = outcomes.get((r, b, home, away))
                hcode = CODE[res] if res else " "
                acode = CODE[OTHER[res]] if res else " "
                cells[(h, r)] = "%4d %s %s" % (a, "w" if home_white else "b", hcode)
                cells[(a, r)] = "%4d %s %s" % (h, "b" if home_white else "w", acode)
    lines = ["012 %s" % name, "022 Lausanne", "042 2026/11/20", "092 Team round robin",
             "142 %d" % paired, "222 600+5", "352 %s" % COLOURS, "362 TW 2.0 TD 1.0 TL 0.0"]
    for t in range(1, n_teams + 1):
        line = put("310", 5, "%3d" % t)
        line = put(line, 9, team_name(t).ljust(32))
        line = put(line, 42, ("C%d" % t).ljust(5))
        line = put(line, 48, "%6d" % (2400 - 20 * t))
        for b in range(1, size + 1):
            line = put(line, 74 + 5 * (b - 1), "%4d" % rank[(t, b)])
        lines.append(line)
    for t in range(1, n_teams + 1):
        for b in range(1, size + 1):
            sr = rank[(t, b)]
            line = put("001", 5, "%4d" % sr)
            line = put(line, 10, "m")
            line = put(line, 15, player_name(t, b).ljust(33))
            line = put(line, 49, "%4d" % (2500 - 10 * sr))
            line = put(line, 54, "SUI")
            line = put(line, 58, "%11d" % (90000000 + sr))
            pts = 0.0
            for r in range(1, paired + 1):
                cell = cells.get((sr, r), "0000 - Z")
                line = put(line, 92 + 10 * (r - 1), cell)
                pts += POINTS.get(cell[-1], 0.0)
            line = put(line, 81, "%4.1f" % pts)
            lines.append(line)
    for r, (home, away, kind) in sorted(forfeited.items()):
        if r <= paired:
            lines.append("330 %s %03d %03d %03d" % (kind, r, home, away))
    return "\n".join(lines) + "\n"


def expected_matches(n_teams: int, size: int, rnd: int, outcomes: dict, forfeited: dict, unfielded: set):
    """The test's own score of round `rnd`: {(home, away): (home gp, away gp)} (a forfeited match:
    every board won by forfeit), counted from the decisions, not from a file."""
    out = {}
    for home, away in schedule(n_teams, rnd)[rnd - 1]:
        f = forfeited.get(rnd)
        if f is not None and (f[0], f[1]) == (home, away):
            hw, aw = {"+-": (1, 0), "-+": (0, 1), "--": (0, 0)}[f[2]]
            out[(home, away)] = (hw * size * 1.0, aw * size * 1.0)
            continue
        hg = ag = 0.0
        for b in range(1, size + 1):
            if (rnd, home, b) in unfielded:
                ag += 1
            elif (rnd, away, b) in unfielded:
                hg += 1
            else:
                res = outcomes[(rnd, b, home, away)]
                hg += {"W": 1, "D": 0.5, "L": 0}[res]
                ag += {"W": 0, "D": 0.5, "L": 1}[res]
        out[(home, away)] = (hg, ag)
    return out


def expected_standings(per_round: list[dict], win=2.0, draw=1.0, loss=0.0):
    """{team: (mp, gp, osb, bh1)} from the rounds' match scores, computed here: Olympiad SB is the sum
    of opponent's MP x game points against it without the lowest-MP opponent (the smaller product
    between equal MP); forfeited matches give MP and GP and no opponent (pass them as `forfeits`)."""
    mp: dict[int, float] = {}
    gp: dict[int, float] = {}
    met: dict[int, list[tuple[int, float]]] = {}
    for rnd in per_round:
        for (h, a), (hg, ag), forfeit in rnd:
            for t, mine, theirs, other in ((h, hg, ag, a), (a, ag, hg, h)):
                both_lose = forfeit == "--"
                mp[t] = mp.get(t, 0.0) + (loss if both_lose else win if mine > theirs else draw if mine == theirs
                                          else loss)
                gp[t] = gp.get(t, 0.0) + mine
                if not forfeit:
                    met.setdefault(t, []).append((other, mine))
    out = {}
    for t in mp:
        pairs = sorted((mp[o], mp[o] * g) for o, g in met.get(t, []))
        osb = sum(p for _, p in pairs) - (pairs[0][1] if pairs else 0.0)
        bh1 = sum(m for m, _ in pairs) - (pairs[0][0] if pairs else 0.0)
        out[t] = (mp[t], gp[t], osb, bh1)
    return out
