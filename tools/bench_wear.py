"""Flash wear of the resume snapshot: bytes programmed and blocks erased per game, and the clock's life.

The app keeps its clock's snapshot in the HAL's store at every press and every 10 s while the clock runs
(device/app.py, SAVE_MS), for a power loss: device.buses.Buses.save writes clock.new, then renames it over
clock.txt. Here each profile's app plays one long classical game (FIDE's standard control, 60 moves each,
about 4.9 hours, every press through the app's button handler at its tick) with its store on a flash in
memory (Flash) under the file system the board really has:

- Pico and ESP32: littlefs 2.11, the version in MicroPython 1.27's lib/littlefs, through littlefs-python
  (the same C library; BSD-3-Clause, a dev dependency), mounted as MicroPython's VfsLfs2 mounts it
  (extmod/vfs_lfsx.c, init_config): read size 32 and lookahead 32 (extmod/vfs_lfs.c defaults), the
  program size the port passes (rp2: progsize=256 in ports/rp2/modules/_boot.py; esp32: the default 32,
  ports/esp32/modules/inisetup.py), cache = min(block, 4 x max(read, program)), block_cycles 100;
  littlefs then keeps a file of up to min(cache, block / 8) bytes inline in its directory's metadata
  (lib/littlefs/lfs2.c, lfs2_init). The block is the port's erase sector, 4096 bytes (ports/rp2/
  rp2_flash.c: BLOCK_SIZE_BYTES = FLASH_SECTOR_SIZE; ports/esp32/esp32_partition.c: BLOCK_SIZE_BYTES
  4096); the blocks are the port's file system (hardware/mcus.json, "store", which cites each figure).
  The board's firmware files are put on the file system first (their .py sizes: more than the .mpy a
  device holds), so the free blocks and the root directory's entries are a device's.
  Every byte programmed and every block erased is counted by the flash itself, not estimated.
- Raspberry Pi: ext4 on a microSD card; no model of ext4 here: each save writes `blocks_a_save` 4 KB
  blocks and the card's controller multiplies that by `write_amplification`, both stated assumptions in
  hardware/mcus.json.

Life in games: littlefs levels the wear dynamically: a metadata pair is moved to newly allocated blocks
after block_cycles (100) erases, and the allocator walks the whole disk, so the erases spread over the
free blocks: life = free blocks x rated erase cycles / blocks erased a game, the erases spread evenly
(--levelling measures how evenly: over 120 games on a Pico the most worn block took 1.25 times the mean,
docs/clock.md). Were they not spread (the snapshot's pair kept on its two blocks), the life would be
2 x cycles / erases a game: printed beside it.
Ten years of weekend tournaments: 52 weekends x 2 days x 10 games = 10,400 games, each counted as this
4.9-hour game (a write every 10 s while the clock runs: a shorter game writes less), so the figure errs
on the short side. Exit status 1 if a profile's life is shorter.

    python tools/bench_wear.py                           # every profile (make bench)
    python tools/bench_wear.py --levelling PROFILE GAMES # how evenly littlefs spread GAMES games' erases
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tools")]

WEEKENDS_A_YEAR = 52
DAYS_A_WEEKEND = 2
GAMES_A_DAY = 10
YEARS = 10
GAMES_A_YEAR = WEEKENDS_A_YEAR * DAYS_A_WEEKEND * GAMES_A_DAY
TEN_YEARS = GAMES_A_YEAR * YEARS
CONTROL = "40/5400+30:1800+30"
# seconds each move takes (both players alike): 40 moves at 160 s, then 20 at 120 s: 2.4 h a side
THINK = [160] * 40 + [120] * 20
# a long snapshot: three periods per side, Black's shorter (time odds): 141-154 bytes (more periods or an
# overtime per side write more), past the ESP32's inline limit (128), so there the file takes a block of its
# own at every save
LONG_CONTROL = "W40/6000+30:20/3000+30:1800+30-B40/5400+30:20/3000+30:1800+30"
LONG_THINK = [150] * 40 + [110] * 20

# MicroPython's VfsLfs2 (extmod/vfs_lfs.c defaults, extmod/vfs_lfsx.c init_config)
READ_SIZE = 32
LOOKAHEAD = 32
BLOCK_CYCLES = 100


def _littlefs():
    try:
        import littlefs
    except ImportError:
        raise ImportError("the wear figures run littlefs itself through littlefs-python: install the dev "
                          "extra (make setup, or pip install -e .[dev])")
    return littlefs


def lfs_config(store):
    """littlefs's configuration as MicroPython 1.27 mounts a store of hardware/mcus.json."""
    return {"block_size": store["block"], "block_count": store["blocks"], "read_size": READ_SIZE,
            "prog_size": store["prog"], "cache_size": min(store["block"], 4 * max(READ_SIZE, store["prog"])),
            "lookahead_size": LOOKAHEAD, "block_cycles": BLOCK_CYCLES}


def flash_class():
    """Flash: a NOR flash in memory as littlefs's block device; counts each block's erases and the bytes
    programmed, and (ops a list) records every program and erase in order, to replay a power cut."""
    littlefs = _littlefs()

    class Flash(littlefs.UserContext):
        def __init__(self, store, image=None):
            size = store["blocks"] * store["block"]
            super().__init__(buffer=bytearray(image) if image is not None else bytearray(b"\xff" * size))
            self.erases = [0] * store["blocks"]
            self.programmed = 0
            self.ops = None

        def prog(self, cfg, block, off, data):
            self.programmed += len(data)
            if self.ops is not None:
                self.ops.append((block, off, bytes(data)))
            return super().prog(cfg, block, off, data)

        def erase(self, cfg, block):
            self.erases[block] += 1
            if self.ops is not None:
                self.ops.append((block, None, None))
            return super().erase(cfg, block)

    return Flash


class LittleFSStore:
    """The HAL store's files (FakeHAL.flash's interface: write, rename, read, files, writes) on littlefs in
    a Flash, configured as the board's MicroPython mounts it. image: the bytes of a flash to mount (a
    device booting again); else a new file system, formatted, with `preload` {path: size} put on it."""

    def __init__(self, store, image=None, preload=None):
        littlefs = _littlefs()
        self.store = store
        self.error = littlefs.LittleFSError
        self.flash = flash_class()(store, image)
        self.fs = littlefs.LittleFS(context=self.flash, mount=False, **lfs_config(store))
        if image is None:
            self.fs.format()
        self.fs.mount()
        self.writes = 0
        for path, size in sorted((preload or {}).items()):
            folder = os.path.dirname(path)
            if folder:
                self.fs.makedirs(folder, exist_ok=True)
            with self.fs.open(path, "wb") as f:
                f.write(b"\x00" * size)
        self.flash.erases = [0] * store["blocks"]        # the counts start with the clock's own writes
        self.flash.programmed = 0

    def write(self, path, text):
        """A whole file, as MicroPython's open(path, "w").write(text) and close: one lfs write, one sync."""
        with self.fs.open(path, "wb") as f:
            f.write(text.encode())
        self.writes += 1

    def rename(self, old, new):
        """Rename old over new (littlefs: one commit)."""
        self.fs.rename(old, new)

    def read(self, path):
        """A file's text; OSError when there is none."""
        try:
            with self.fs.open(path, "rb") as f:
                return f.read().decode()
        except self.error:
            raise OSError(2, "no file %s" % path)

    @property
    def files(self):
        """{path: bytes} of the root folder's files."""
        out = {}
        for name in self.fs.listdir("/"):
            if self.fs.stat(name).type == 1:        # LFS_TYPE_REG
                with self.fs.open(name, "rb") as f:
                    out[name] = f.read()
        return out

    def used_blocks(self):
        """Blocks the file system holds (littlefs's lfs_fs_size)."""
        return self.fs.used_block_count

    def image(self):
        """The flash's bytes now."""
        return bytes(self.flash.buffer)


def firmware_files(profile):
    """{path on the device: bytes} of what `flagfall deploy` puts on a board's file system: the firmware's
    packages under lib/, main.py, the profile as board.json (sizes of the .py sources)."""
    import firmware_manifest
    out = {"board.json": len(json.dumps(profile))}
    for rel in firmware_manifest.files(profile):
        size = os.path.getsize(os.path.join(ROOT, "firmware", rel))
        out[rel if rel == "main.py" else "lib/" + rel] = size
    return out


def load_profile(name):
    """A board profile and its store (hardware/mcus.json)."""
    with open(os.path.join(ROOT, "boards", name + ".json")) as f:
        p = json.load(f)
    with open(os.path.join(ROOT, "hardware", "mcus.json")) as f:
        store = json.load(f)[p["mcu"]]["store"]
    return p, store


def play(name, flash=None, control=CONTROL, think=THINK):
    """One game on the profile's app, its store on `flash` (default: its littlefs, or for ext4 the fake
    flash, which only keeps the files): (store, seconds played, the app's clock, the store's config)."""
    from device.app import App
    from device.fake.fakehw import FakeFlash, FakeHAL
    p, store = load_profile(name)
    hal = FakeHAL(now=1000)
    if flash is None:
        flash = LittleFSStore(store, preload=firmware_files(p)) if store["fs"] == "littlefs" else FakeFlash()
    hal.flash = flash
    hal.attach_profile(p)
    p = dict(p, default_tc=control)
    app = App(p, hal, None)

    def run(seconds):
        for _ in range(seconds):
            hal.advance(1000)
            app.step()

    app.on_button("start", hal.ticks_ms())          # white's clock starts
    for secs in think:
        for side in ("white", "black"):
            run(secs)
            app.on_button(side, hal.ticks_ms())
    return flash, 2 * sum(think), app.clock, store


def figures(name, control=CONTROL, think=THINK):
    """The wear figures of one profile's game (a dict): writes, the snapshot's size at the end, bytes programmed and
    blocks erased in the game, the most erases of any one block, free blocks, rated cycles, life in games
    and in years."""
    flash, secs, clock, store = play(name, None, control, think)
    assert clock.moves == [len(think), len(think)] and clock.flag is None, (clock.moves, clock.flag)
    out = {"name": name, "writes": flash.writes, "hours": secs / 3600.0, "cycles": store["erase_cycles"],
           "fs": store["fs"], "control": control, "snapshot": len(clock.snapshot())}
    if store["fs"] == "littlefs":
        dev = flash.flash
        erased = sum(dev.erases)
        free = store["blocks"] - flash.used_blocks()
        out.update(programmed=dev.programmed, erased=erased, free=free, hottest=max(dev.erases),
                   unlevelled=2 * store["erase_cycles"] // max(erased, 1))
    else:
        blocks = flash.writes * store["blocks_a_save"] * store["write_amplification"]
        free = store["blocks"]
        out.update(programmed=flash.writes * store["blocks_a_save"] * store["block"], erased=blocks, free=free,
                   hottest=None, unlevelled=None)
    out["life"] = free * store["erase_cycles"] // max(out["erased"], 1)
    out["years"] = out["life"] / float(GAMES_A_YEAR)
    return out


class _Recorder:
    """A store that keeps only what was written, in order (the save texts of a game, to replay)."""

    def __init__(self):
        self.texts = []
        self.writes = 0
        self.files = {}

    def write(self, path, text):
        self.texts.append(text)
        self.files[path] = text.encode()
        self.writes += 1

    def rename(self, old, new):
        self.files[new] = self.files.pop(old)

    def read(self, path):
        if path not in self.files:
            raise OSError(2, "no file %s" % path)
        return self.files[path].decode()


def levelling(name, games):
    """The erases of `games` games' saves on the profile's littlefs, block by block: (erases of the most
    erased block, the mean over the free blocks, blocks erased at least once, free blocks). The saves of
    one game are recorded from the app, then replayed games times (the app is not stepped again)."""
    rec = play(name, _Recorder())[0]
    p, store = load_profile(name)
    fs = LittleFSStore(store, preload=firmware_files(p))
    for _ in range(games):
        for text in rec.texts:
            fs.write("clock.new", text)
            fs.rename("clock.new", "clock.txt")
    e = fs.flash.erases
    free = store["blocks"] - fs.used_blocks()
    return max(e), sum(e) / float(free), sum(1 for x in e if x), free


def main(argv):
    if argv[:1] == ["--levelling"]:
        name, games = argv[1], int(argv[2])
        most, mean, touched, free = levelling(name, games)
        print("levelling_%s: %d games: the most erased block %d erases, %.1f on average over the %d free blocks, "
              "%d blocks erased at least once" % (name, games, most, mean, free, touched))
        return 0
    short = []
    print("wear: the resume snapshot on each profile's file system, a game of 60 moves each (a save at every press "
          "and every 10 s running); ten years of weekend tournaments = %d weekends x %d days x %d games x %d = %d "
          "games" % (WEEKENDS_A_YEAR, DAYS_A_WEEKEND, GAMES_A_DAY, YEARS, TEN_YEARS), flush=True)
    names = sorted(n[:-5] for n in os.listdir(os.path.join(ROOT, "boards")) if n.endswith(".json"))
    runs = [(name, "", CONTROL, THINK) for name in names]
    # the long snapshot once on each microcontroller's littlefs (the same store for every profile of one)
    seen = set()
    for name in names:
        mcu = load_profile(name)[0]["mcu"]
        if mcu not in seen and load_profile(name)[1]["fs"] == "littlefs":
            seen.add(mcu)
            runs.append((name, "_long", LONG_CONTROL, LONG_THINK))
    for name, tag, control, think in runs:
        f = figures(name, control, think)
        store = load_profile(name)[1]
        if f["fs"] == "littlefs":
            how = "%d blocks erased (littlefs 2.11; at most %d on one block), life %d games (%d free blocks x %d " \
                  "cycles; %d without levelling)" % (f["erased"], f["hottest"], f["life"], f["free"], f["cycles"],
                                                     f["unlevelled"])
        else:
            how = "%d card blocks worn (ext4: %d blocks of 4 KB a save x %d write amplification, assumed), " \
                  "life %d games (%d blocks x %d cycles, assumed)" % (
                      f["erased"], store["blocks_a_save"], store["write_amplification"], f["life"], f["free"],
                      f["cycles"])
        print("wear_%s: %s, %d-byte snapshot at the end: %d writes in %.1f h, %d bytes programmed, %s: %.0f years "
              "of weekend tournaments" % (name + tag, control, f["snapshot"], f["writes"], f["hours"],
                                          f["programmed"], how, f["years"]), flush=True)
        if f["life"] < TEN_YEARS:
            short.append(name + tag)
    if short:
        print("FAILED: shorter than %d years of weekend tournaments (%d games): %s" % (YEARS, TEN_YEARS, ", ".join(short)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
