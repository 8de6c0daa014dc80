"""Flash wear of the resume snapshot (tools/bench_wear.py), on littlefs itself (littlefs-python, the version
MicroPython 1.27 carries) configured as each board mounts it: one long classical game on each kind of
store, bytes programmed and blocks erased counted by the flash, the life at the rated erase cycles at
least ten years of weekend tournaments; and a power cut at any byte of a save resumes the game."""
import os
import sys

from repo import ROOT
sys.path.insert(0, os.path.join(ROOT, "tools"))
import bench_wear  # noqa: E402

from device.app import App, SNAPSHOT  # noqa: E402
from device.fake.fakehw import FakeHAL  # noqa: E402
from flagcore import clock as clockmod  # noqa: E402

# one profile for each board's store (hardware/mcus.json): a Pico, an ESP32, a Raspberry Pi; and the ESP32
# with a long snapshot (bench_wear.LONG_CONTROL), past its littlefs's inline limit (128 bytes: the file in a
# block of its own)
GAMES = (("pico-chess", bench_wear.CONTROL, bench_wear.THINK), ("esp32-chess", bench_wear.CONTROL, bench_wear.THINK),
         ("rpi-chess", bench_wear.CONTROL, bench_wear.THINK),
         ("esp32-chess", bench_wear.LONG_CONTROL, bench_wear.LONG_THINK))


def test_the_snapshot_wears_the_flash_less_than_ten_years_of_weekends():
    erased = {}
    for name, control, think in GAMES:
        f = bench_wear.figures(name, control, think)
        print("wear %s %s: %d writes, %d bytes, %d blocks erased a game; life %d games (%.0f years)" % (
            name, control, f["writes"], f["programmed"], f["erased"], f["life"], f["years"]))
        # a write at every press (120) and every 10 s while the clock runs (about 1640-1760 in 4.6-4.9 h)
        assert 1700 < f["writes"] < 2000, f
        assert f["life"] >= bench_wear.TEN_YEARS, (name, f["life"], bench_wear.TEN_YEARS)
        erased[name, control] = f["erased"]
        if f["fs"] != "littlefs":
            continue
        # littlefs commits the new file's creation, its data and the rename: three commits a save, each
        # at least a program unit; the log's block fills and is compacted into its pair's other block (and a
        # file past the inline limit is written to a block of its own, erased first)
        _, store = bench_wear.load_profile(name)
        assert f["programmed"] >= 3 * store["prog"] * f["writes"], f
        assert f["erased"] > 0, f
        # the wear levelling the life counts on: no block erased more than block_cycles (+1) times in the
        # game, the metadata pair moved on to other blocks instead
        assert f["hottest"] <= bench_wear.BLOCK_CYCLES + 1 < f["erased"], f
        assert f["unlevelled"] < bench_wear.TEN_YEARS <= f["life"], f
    # inline, the snapshot wears the ESP32 a save's commits; past 128 bytes a block is erased at every save
    short, long = erased["esp32-chess", bench_wear.CONTROL], erased["esp32-chess", bench_wear.LONG_CONTROL]
    assert short < 400 and long > 1700, (short, long)


def _game(name):
    """A game under way on the profile's app, its store on littlefs: (app, hal, store config)."""
    p, store = bench_wear.load_profile(name)
    hal = FakeHAL(now=1000)
    hal.flash = bench_wear.LittleFSStore(store, preload=bench_wear.firmware_files(p))
    hal.attach_profile(p)
    app = App(dict(p, default_tc=bench_wear.CONTROL), hal, None)
    app.on_button("start", hal.ticks_ms())
    return app, hal, p, store


def _images(before, ops, block):
    """The flash's bytes at every moment of a save: before it, after each byte of each program (a power
    cut mid-program leaves its first bytes written), half-way through each erase (a NOR erase cut short
    leaves the block part erased) and after each erase."""
    img = bytearray(before)
    yield bytes(img)
    for blk, off, data in ops:
        start = blk * block
        if data is None:                      # an erase
            img[start:start + block // 2] = b"\xff" * (block // 2)
            yield bytes(img)
            img[start:start + block] = b"\xff" * block
        else:
            for i in range(len(data)):
                img[start + off + i] = data[i]
                yield bytes(img)
        yield bytes(img)


def _press(app, hal):
    """The side to move presses its clock (a save): (the flash before, the save's programs and erases,
    the snapshot kept before, the one kept after)."""
    flash = hal.flash
    old = app.saved
    before = flash.image()
    flash.flash.ops = []
    app.on_button(("white", "black")[app.clock.to_move], hal.ticks_ms())
    ops, flash.flash.ops = flash.flash.ops, None
    assert app.saved != old and ops, (old, app.saved)
    return before, ops, old, app.saved


def _cut_at_every_byte(save, p, store, now):
    """A power cut at every moment of a save: the next boot mounts the file system, reads the old
    snapshot or the new one, whole, and resumes that game paused with its times."""
    before, ops, old, new = save
    seen = set()
    booted = 0
    for image in _images(before, ops, store["block"]):
        back = bench_wear.LittleFSStore(store, image=image)   # mounts: a torn save must not break the fs
        text = back.read(SNAPSHOT + ".txt")
        assert text in (old, new), (len(seen), text)
        if text not in seen or booted < 20:
            booted += 1
            hal = FakeHAL(now=now + 60000)                        # the next boot, on what the flash holds
            hal.flash = back
            hal.attach_profile(p)
            c = App(p, hal, None).clock
            assert c.state == clockmod.PAUSED and c.snapshot().split("|")[3:] == text.split("|")[3:], text
        seen.add(text)
    assert seen == {old, new}, seen            # the cut came both before and after the save took


def test_a_power_cut_at_any_byte_of_a_save_resumes_the_old_or_the_new_snapshot():
    # on the Pico's littlefs (256-byte program units): a plain save, a save that compacts the metadata
    # block (an erase), and a save that moves the metadata to blocks not used before (wear levelling)
    app, hal, p, store = _game("pico-chess")
    n = store["blocks"]
    home = set()                 # the blocks of the first metadata pair the saves compact into
    cut = {}
    for _ in range(3000):
        hal.advance(30000)
        app.step()
        erases = list(hal.flash.flash.erases)
        save = _press(app, hal)
        hit = set(b for b in range(n) if hal.flash.flash.erases[b] > erases[b])
        if not hit:
            kind = "plain"
        elif len(home) < 2 or not hit - home:
            home |= hit
            kind = "compacting"
        else:
            kind = "relocating"
        if kind not in cut:
            _cut_at_every_byte(save, p, store, hal.now)
            cut[kind] = len(save[1])
        if len(cut) == 3:
            break
    print("power cuts replayed: %r (programs and erases of each save)" % cut)
    assert sorted(cut) == ["compacting", "plain", "relocating"], cut
