"""How the files of this folder were made (run from this folder: python3 generate.py).

A fictional 19-player open (names, clubs and FIDE ids invented): a simple Swiss pairing by score
groups without rematches, results drawn from the ratings with a fixed seed, a half-point bye in
round 2 (player 15) and round 4 (player 17), pairing-allocated byes in rounds 1 and 3, a forfeit
on the last board of round 3; rounds 1-3 played, round 4 paired. Written as a TRF16 (Swiss-Manager
style title codes, CRLF line ends, 013 club records), a TRF26 (222 time control, 162 scoring, 132
round dates, 240 bye records), the round-4 pairing PGN and the round-4 CSV. The PGN's and CSV's
board order is computed here independently of flagfall.event (FIDE C.04.1 F.1).
"""
import random
random.seed(20261122)
players = [
 # name, sex, title, rating, fed, fide, birth, club
 ("Novak, Tomas", "m", "GM", 2541, "CZE", "31012345", "1991/03/14", "SK Slavia Praha"),
 ("Lindqvist, Erik", "m", "IM", 2463, "SWE", "1734561", "1988/07/02", "Stockholms SS"),
 ("Moreau, Claire", "w", "WGM", 2398, "FRA", "20654321", "1995/11/23", "Echiquier Lyonnais"),
 ("Bauer, Felix", "m", "IM", 2386, "GER", "24698712", "1999/01/30", "SK Turm Emsdetten"),
 ("Kowalska, Anna", "w", "WIM", 2291, "POL", "1187654", "2001/05/17", "KS Hetman"),
 ("O'Brien, Sean", "m", "FM", 2274, "IRL", "2512345", "1993/09/09", "Gonzaga"),
 ("Rossi, Marco", "m", "FM", 2251, "ITA", "834567", "1985/12/01", "Scacchi Torino"),
 ("van Dijk, Pieter", "m", "", 2198, "NED", "1076543", "1979/04/21", "HWP Haarlem"),
 ("Horvath, Zsofia", "w", "WFM", 2143, "HUN", "749876", "2004/02/11", "MTK Budapest"),
 ("Garcia Lopez, Javier", "m", "CM", 2117, "ESP", "2287654", "1990/08/15", "CA Albacete"),
 ("Popescu, Andrei", "m", "", 2089, "ROU", "1265432", "2006/10/05", "CS Timisoara"),
 ("Jensen, Mette", "w", "", 2034, "DEN", "1423456", "1997/06/28", "Brønshøj"),
 ("Schmidt, Lukas", "m", "", 1987, "AUT", "1654321", "2008/03/03", "SK Wien"),
 ("Dubois, Élodie", "w", "", 1942, "FRA", "36512345", "2009/09/19", "Echiquier Lyonnais"),
 ("Petrov, Ivan", "m", "", 1905, "BUL", "2934567", "1968/01/12", "CC Plovdiv"),
 ("Müller, Jonas", "m", "", 1876, "GER", "24765432", "2010/12/24", "SK Turm Emsdetten"),
 ("Silva, Beatriz", "w", "", 1823, "POR", "1967890", "2007/07/07", "GD Dias Ferreira"),
 ("Kuznetsov, Oleg", "m", "", 1788, "KAZ", "13789012", "1975/05/05", ""),
 ("Tanaka, Yuki", "w", "", 0, "JPN", "", "2012/04/01", ""),
]
N = len(players)
ranks = list(range(1, N + 1))
hist = {r: [] for r in ranks}   # list of (opp, colour, code) per round
score = {r: 0.0 for r in ranks}
PTS = {"1": 1, "0": 0, "=": .5, "+": 1, "-": 0, "U": 1, "H": .5, "Z": 0, " ": 0}

def colour_pref(r):
    cs = [c for (_, c, _) in hist[r] if c in "wb"]
    if not cs: return None
    w = cs.count("w"); b = cs.count("b")
    if w > b: return "b"
    if b > w: return "w"
    return "b" if cs[-1] == "w" else "w"

def pair_round(rnd, absent):
    active = [r for r in ranks if r not in absent]
    order = sorted(active, key=lambda r: (-score[r], r))
    bye = None
    if len(order) % 2:
        # lowest ranked in lowest score group who has not had a bye
        for r in reversed(order):
            if all(c != "U" for (_, _, c) in hist[r]):
                bye = r; break
        order.remove(bye)
    played = {r: {o for (o, _, _) in hist[r] if o} for r in ranks}
    def solve(rem):
        if not rem: return []
        a = rem[0]
        # prefer opponents in same/similar score, standard top-half vs bottom-half of group
        group = [x for x in rem[1:] if score[x] == score[a]]
        half = len(group) // 2 + 1 if group else 0
        cands = (group[len(group)//2:] if len(group) > 1 else group) + [x for x in rem[1:] if x not in group[len(group)//2:]]
        for b in cands:
            if b in played[a]: continue
            rest = solve([x for x in rem if x not in (a, b)])
            if rest is not None: return [(a, b)] + rest
        return None
    pairs = solve(order)
    out = []
    for i, (a, b) in enumerate(pairs):
        pa, pb = colour_pref(a), colour_pref(b)
        if rnd == 1:
            w, bl = (a, b) if i % 2 == 0 else (b, a)
        elif pa == "w" or pb == "b": w, bl = a, b
        elif pa == "b" or pb == "w": w, bl = b, a
        else: w, bl = (a, b) if a < b else (b, a)
        out.append((w, bl))
    return out, bye

def result(w, b):
    rw = players[w-1][3] or 1600; rb = players[b-1][3] or 1600
    e = 1 / (1 + 10 ** ((rb - rw - 35) / 400))
    x = random.random()
    d = 0.28
    if x < e - d/2: return ("1", "0")
    if x < e + d/2: return ("=", "=")
    return ("0", "1")

log = []
for rnd in (1, 2, 3, 4):
    absent = {15} if rnd == 2 else ({17} if rnd == 4 else set())
    pairs, bye = pair_round(rnd, absent)
    for a in absent:
        hist[a].append((0, "-", "H"))
    if bye: hist[bye].append((0, "-", "U"))
    for i, (w, b) in enumerate(pairs):
        if rnd == 4:
            cw, cb = " ", " "
        elif rnd == 3 and i == len(pairs) - 1:
            cw, cb = "+", "-"          # forfeit on the last board of round 3
        else:
            cw, cb = result(w, b)
        hist[w].append((b, "w", cw)); hist[b].append((w, "b", cb))
    if rnd < 4:
        for r in ranks: score[r] += PTS[hist[r][-1][2]]
    log.append((rnd, pairs, bye, absent))


for rnd, pairs, bye, absent in log:
    print("round", rnd, "bye", bye, "absent", absent, pairs)
for r in ranks: print(r, score[r], hist[r])

# round 4 board order, FIDE C.04.1 F.1
pairs4 = log[3][1]
def key(p):
    a, b = p
    hi = min(p, key=lambda r: (-score[r], r))
    return (-score[hi], -(score[a] + score[b]), hi)
pairs4 = sorted(pairs4, key=key)
print("order4", [(w, b, score[w], score[b]) for w, b in pairs4])

TITLE16 = {"GM": "g", "IM": "m", "WGM": "wg", "WIM": "wm", "FM": "f", "WFM": "wf", "CM": "c", "": ""}
def pline(r, title16, rounds):
    name, sex, title, rating, fed, fide, birth, club = players[r-1]
    t = TITLE16[title] if title16 else title
    pts = sum(PTS[c] for (_, _, c) in hist[r][:3]) + 0.0
    line = "001 %4d %1s%3s %-33s %4s %3s %11s %10s %4.1f %4d" % (
        r, sex, t, name, rating or "", fed, fide, birth, pts, 0)
    for (o, c, code) in hist[r][:rounds]:
        line += "  %4s %1s %1s" % ("%4d" % o if o else "0000", c, code)
    return line.rstrip()

# rank column: by points then start rank
pts3 = {r: sum(PTS[c] for (_, _, c) in hist[r][:3]) for r in ranks}
rank_of = {r: i for i, r in enumerate(sorted(ranks, key=lambda r: (-pts3[r], r)), 1)}
def with_rank(line, r):
    return line[:85] + "%4d" % rank_of[r] + line[89:]

hdr16 = ["012 Flagfall Autumn Open 2026", "022 Brno", "032 CZE", "042 2026/11/19", "052 2026/11/23",
         "062 19", "072 18", "092 Individual: Swiss-System", "102 IA Dvorak, Petr", "112 FA Novotna, Jana",
         "122 90 minutes for the game + 30 seconds per move from move 1"]
lines16 = hdr16 + [with_rank(pline(r, True, 4), r) for r in ranks]
clubs = {}
for r in ranks:
    c = players[r-1][7]
    if c: clubs.setdefault(c, []).append(r)
for c, rs in clubs.items():
    if len(rs) > 1:
        lines16.append("013 %-32s" % c + "".join("%4d " % r for r in rs).rstrip())
lines16.append("XXR 7")
open("open2026-r4.trf", "w", newline="").write("\r\n".join(lines16) + "\r\n")

rdates = "132" + " " * 88 + "  ".join(["26/11/19", "26/11/20", "26/11/20", "26/11/21", "26/11/21", "26/11/22", "26/11/23"])
hdr26 = ["### Flagfall Autumn Open 2026, round 4 paired (TRF26)", "012 Flagfall Autumn Open 2026", "022 Brno", "032 CZE", "042 2026/11/19", "052 2026/11/23",
         "062 19", "072 18", "092 Individual: Swiss-System", "102 IA Dvorak, Petr", "112 FA Novotna, Jana",
         "122 90'+30\"", "142 7", "152 W", "162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0", "182 Flagfall test data", "192 FIDE_DUTCH_2025",
         "222 5400+30", rdates]
lines26 = hdr26 + [with_rank(pline(r, False, 4), r) for r in ranks] + ["240 H   2   15", "240 H   4   17"]
open("open2026-r4-trf26.trf", "w", newline="").write("\n".join(lines26) + "\n")

def tag(k, v): return '[%s "%s"]' % (k, v.replace('"', '\\"'))
pgn = []
for i, (w, b) in enumerate(pairs4, 1):
    tg = [("Event", "Flagfall Autumn Open 2026"), ("Site", "Brno CZE"), ("Date", "2026.11.21"), ("Round", "4.%d" % i),
          ("White", players[w-1][0]), ("Black", players[b-1][0]), ("Result", "*")]
    for side, r in (("White", w), ("Black", b)):
        p = players[r-1]
        if p[2]: tg.append((side + "Title", p[2]))
        if p[3]: tg.append((side + "Elo", str(p[3])))
        if p[5]: tg.append((side + "FideId", p[5]))
        tg.append((side + "Fed", p[4]))
        if p[7]: tg.append((side + "Team", p[7]))
    tg.append(("TimeControl", "5400+30"))
    pgn.append("\n".join(tag(k, v) for k, v in tg) + "\n\n*\n")
bye4 = log[3][2]
if bye4:
  p = players[bye4-1]
  pgn.append("\n".join(tag(k, v) for k, v in [("Event", "Flagfall Autumn Open 2026"), ("Site", "Brno CZE"), ("Date", "2026.11.21"), ("Round", "4.%d" % (len(pairs4) + 1)), ("White", p[0]), ("Black", "BYE"), ("Result", "*")]) + "\n\n*\n")
open("open2026-r4.pgn", "w").write("\n".join(pgn))

import csv, io
f = io.StringIO()
wr = csv.writer(f, lineterminator="\n")
wr.writerow(["board", "white", "black", "white_fide_id", "black_fide_id"])
for i, (w, b) in enumerate(pairs4, 1):
    wr.writerow([i, players[w-1][0], players[b-1][0], players[w-1][5], players[b-1][5]])
open("open2026-r4.csv", "w").write(f.getvalue())
print("bye4", bye4)
