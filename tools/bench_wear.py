"""Flash wear of the resume snapshot: bytes programmed and blocks erased per game, and the clock's life.

The app keeps its clock's snapshot in the HAL's store at every press and every 10 s while the clock runs
(device/app.py, SAVE_MS), for a power loss. Here each profile's app plays one long classical game on the
fake flash (device.fake.fakehw.FakeFlash, a model of littlefs's metadata log: every commit padded to
the program size, a full block compacted into its pair's other block) configured as that board's file
system (hardware/mcus.json, "store": block and program sizes, littlefs's inline limit, blocks, rated
erase cycles): FIDE's standard control, 60 moves each, about 4.9 hours, every press through the app's
button handler at its tick.

Life in games: the file system's free blocks (its blocks less one for each file of the board's firmware
and two for the superblock) x the rated erase cycles / blocks erased per game; littlefs moves a
metadata pair to other blocks after 100 erases (MicroPython's block_cycles), so the erases spread over
the free blocks. Ten years of weekend tournaments: 52 weekends x 7 games x 10 = 3640 games. Exit status 1
if a profile's life is shorter. The Raspberry Pi's store is ext4 on a microSD card: its figure rests on
an assumed card endurance (hardware/mcus.json says which), not on a datasheet.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tools")]

GAMES_A_WEEKEND = 7
WEEKENDS_A_YEAR = 52
YEARS = 10
TEN_YEARS = GAMES_A_WEEKEND * WEEKENDS_A_YEAR * YEARS
CONTROL = "40/5400+30:1800+30"
# seconds each move takes (both players alike): 40 moves at 160 s, then 20 at 120 s: 2.4 h a side
THINK = [160] * 40 + [120] * 20


def profiles():
    """Every board profile's name."""
    return sorted(n[:-5] for n in os.listdir(os.path.join(ROOT, "boards")) if n.endswith(".json"))


def play(name):
    """One game on the profile's app and fake flash: (flash, seconds played, the app's clock)."""
    from device.app import App
    from device.fake.fakehw import FakeFlash, FakeHAL
    with open(os.path.join(ROOT, "boards", name + ".json")) as f:
        p = json.load(f)
    with open(os.path.join(ROOT, "hardware", "mcus.json")) as f:
        store = json.load(f)[p["mcu"]]["store"]
    hal = FakeHAL(now=1000)
    hal.flash = FakeFlash(store["block"], store["prog"], store["inline_max"])
    hal.attach_profile(p)
    p = dict(p, default_tc=CONTROL)
    app = App(p, hal, None)

    def run(seconds):
        for _ in range(seconds):
            hal.advance(1000)
            app.step()

    app.on_button("start", hal.ticks_ms())          # white's clock starts
    for secs in THINK:
        for side in ("white", "black"):
            run(secs)
            app.on_button(side, hal.ticks_ms())
    return hal.flash, 2 * sum(THINK), app.clock, store


def figures(name):
    """The wear figures of one profile (a dict)."""
    import firmware_manifest
    flash, secs, clock, store = play(name)
    assert clock.moves == [60, 60] and clock.flag is None, (clock.moves, clock.flag)
    files = len(firmware_manifest.files(firmware_manifest.load(name))) + 1     # and the profile, board.json
    free = store["blocks"] - files - 2
    life = free * store["erase_cycles"] // max(flash.erased, 1)
    return {"name": name, "writes": flash.writes, "programmed": flash.programmed, "erased": flash.erased,
            "hours": secs / 3600.0, "free": free, "cycles": store["erase_cycles"], "fs": store["fs"],
            "life": life, "years": life / float(GAMES_A_WEEKEND * WEEKENDS_A_YEAR)}


def main():
    short = []
    for name in profiles():
        f = figures(name)
        print("wear_%s: %d snapshot writes, %d bytes programmed, %d blocks erased in a %.1f h game (%s, 60 moves "
              "each); life %d games (%d free blocks x %d cycles): %.0f years of weekend tournaments (%d games a "
              "weekend)" % (name, f["writes"], f["programmed"], f["erased"], f["hours"], CONTROL, f["life"],
                            f["free"], f["cycles"], f["years"], GAMES_A_WEEKEND), flush=True)
        if f["life"] < TEN_YEARS:
            short.append(name)
    if short:
        print("FAILED: shorter than %d years of weekend tournaments (%d games): %s" % (YEARS, TEN_YEARS, ", ".join(short)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
