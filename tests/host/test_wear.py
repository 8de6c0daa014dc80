"""Flash wear of the resume snapshot (tools/bench_wear.py): one long classical game on each kind of store,
bytes programmed and blocks erased counted on the fake flash, and the life at the rated erase cycles
at least ten years of weekend tournaments."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import bench_wear  # noqa: E402

# one profile for each board's store (hardware/mcus.json): a Pico, an ESP32, a Raspberry Pi
PROFILES = ("pico-chess", "esp32-chess", "rpi-chess")


def test_the_snapshot_wears_the_flash_less_than_ten_years_of_weekends():
    for name in PROFILES:
        f = bench_wear.figures(name)
        print("wear %s: %d writes, %d bytes, %d blocks erased a game; life %d games (%.0f years)" % (
            name, f["writes"], f["programmed"], f["erased"], f["life"], f["years"]))
        # a write at every press (120) and every 10 s while the clock runs (about 1760 in 4.9 h)
        assert 1800 < f["writes"] < 2000, f
        assert f["erased"] > 0 and f["programmed"] >= f["writes"] * 64, f
        assert f["life"] >= bench_wear.TEN_YEARS, (name, f["life"], bench_wear.TEN_YEARS)


def test_the_fake_flash_counts_a_compaction_when_the_log_is_full():
    from device.fake.fakehw import FakeFlash
    fl = FakeFlash(block=4096, prog=256, inline_max=512)
    for i in range(9):                       # each write and rename: two commits of 256 bytes: 8 fill a block
        fl.write("clock.new", "x" * 100)
        fl.rename("clock.new", "clock.txt")
    assert fl.erased == 1 and fl.writes == 9, (fl.erased, fl.programmed)
    big = FakeFlash(block=4096, prog=32, inline_max=128)
    big.write("clock.new", "x" * 200)        # beyond the inline limit: a block of its own
    assert big.erased == 1 and big.programmed == 224 + 64
