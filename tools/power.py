"""The power budget of a board profile: every part's current, the cell current, and the low-battery
threshold that leaves 10 hours (FIDE's standard for electronic clocks: the clock runs at least 10 hours
after the low-battery signal).

Data: hardware/parts.json (each part's current and where it is drawn, the battery packs, the regulators).
tools/gen_hardware.py writes the budget into hardware/<profile>/README.md; tools/check_boards.py rejects
a profile whose battery.low_pct is below what the budget demands, so the 10 hours cannot be lost by
editing either file. The cell current is the worst case (each part's ma_max); the threshold is
    low_pct >= ceil(100 * cell mA x 10 h / (pack mAh x derate)).
"""
import json
import math
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARTS = os.path.join(ROOT, "hardware", "parts.json")
HOURS_AFTER_SIGNAL = 10
RAIL_MV = 3300

# pieces standing on the sensors at most (one magnet each); minzu: every cell may hold one
PIECES = {"chess": 32, "draughts": 40, "brazilian": 24, "russian": 24, "checkers": 24}


def load_parts():
    """hardware/parts.json as a dict."""
    with open(PARTS) as f:
        return json.load(f)


def pieces(p):
    """Pieces of the profile's game (magnets to buy; at most this many stand on sensors)."""
    b = p["board"]
    return PIECES.get(p["game"], b["rows"] * b["cols"])


def loads(p):
    """(qty, part key) of every part that draws current on this profile."""
    out = [(1, p["mcu"])]
    for d in p.get("displays") or []:
        out.append((1, d["type"]))
    if p.get("leds"):
        out.append((1, "led"))
    if p.get("buzzer"):
        out.append((1, "buzzer"))
    s = p.get("sensors") or {}
    if s.get("type") == "matrix":
        out.append((1, "reed-matrix"))
    elif s.get("type") == "hc165":
        out.append((s["chips"], "hc165"))
        out.append((pieces(p), "hc165-input"))
    elif s.get("type") == "mcp23017":
        out.append((len(s["addresses"]), "mcp23017"))
        out.append((pieces(p), "mcp23017-input"))
    if (p.get("battery") or {}).get("gauge"):
        out.append((1, p["battery"]["gauge"]))
    out.append((1, "charger"))
    return out


def budget(p, data=None):
    """The budget of a profile with a battery section, else None: a dict with rows (qty, part title,
    ma each, ma_max each, rail, cell mA at ma_max), total_ma (cell, worst case), typical_ma, pack,
    regulator, need_mah (10 h after the signal), low_pct_min, hours_after (at the profile's low_pct)
    and hours_full (a full pack at the worst case)."""
    bat = p.get("battery")
    if not bat:
        return None
    data = data or load_parts()
    parts = data["parts"]
    pack = data["packs"][bat["pack"]]
    reg = data["regulators"][p["mcu"]]
    if reg["kind"] == "switching":
        factor = reg.get("rail_mv", RAIL_MV) / (pack["v_min_mv"] * reg["efficiency"])
    else:
        factor = 1.0
    rows = []
    total = typical = 0.0
    for qty, key in loads(p):
        part = parts[key]
        f = factor if part["rail"] in ("3v3", "5v") else 1.0
        cell = qty * part["ma_max"] * f
        rows.append((qty, part["title"], part["ma"], part["ma_max"], part["rail"], cell, part["source"]))
        total += cell
        typical += qty * part["ma"] * f
    usable = pack["mah"] * pack["derate"]
    need = total * HOURS_AFTER_SIGNAL
    low_min = int(math.ceil(100 * need / usable))
    return {"rows": rows, "total_ma": total, "typical_ma": typical, "pack": pack, "regulator": reg,
            "factor": factor, "usable_mah": usable, "need_mah": need, "low_pct_min": low_min,
            "hours_after": bat.get("low_pct", 0) / 100.0 * usable / total, "hours_full": usable / total}


def problems(p, data=None):
    """Why a profile's battery section does not keep 10 hours after the signal (empty when it does)."""
    bat = p.get("battery")
    if not bat:
        return []
    data = data or load_parts()
    errs = []
    for key in ("gauge" if "gauge" in bat else "adc", "pack", "low_pct"):
        if key not in bat:
            errs.append("battery needs %r" % key)
    if errs:
        return errs
    if bat["pack"] not in data["packs"]:
        return ["battery pack %r is not in hardware/parts.json (%s)" % (bat["pack"], ", ".join(sorted(data["packs"])))]
    if "gauge" in bat and bat["gauge"] not in data["parts"]:
        return ["battery gauge %r is not in hardware/parts.json (its current is part of the budget)" % bat["gauge"]]
    if p.get("mcu") not in data["regulators"]:
        return ["hardware/parts.json has no regulator for a %s on a battery" % p.get("mcu")]
    b = budget(p, data)
    if bat["low_pct"] < b["low_pct_min"]:
        errs.append("battery low_pct %d leaves %.1f h after the signal: the budget (%.0f mA worst case, %d mAh usable) "
                    "needs at least %d %% for %d h" % (bat["low_pct"], b["hours_after"], b["total_ma"], b["usable_mah"],
                                                       b["low_pct_min"], HOURS_AFTER_SIGNAL))
    if bat["low_pct"] >= 100:
        errs.append("battery low_pct %d: the signal would come with a full cell" % bat["low_pct"])
    return errs
