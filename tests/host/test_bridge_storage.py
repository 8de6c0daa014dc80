"""A full disk never stops a game: moves stay in memory, an alert is raised, writes are retried, nothing is lost."""
import errno
import os

from flagfall.bridge import engine as eng_mod
from flagfall.bridge import journal as jmod
from flagfall.bridge import records, replay


class Disk:
    """Makes the journal's file and the record writer fail with ENOSPC while `full` is set."""

    def __init__(self, monkeypatch):
        self.full = False
        real_open = open
        disk = self

        class FullFile:
            def __init__(self, f):
                self.f = f

            def write(self, data):
                if disk.full:
                    self.f.write(data[: len(data) // 2])       # a torn half line, then the error
                    raise OSError(errno.ENOSPC, "No space left on device")
                return self.f.write(data)

            def __getattr__(self, name):
                return getattr(self.f, name)

        def journal_open(path, mode="r", *a, **kw):
            f = real_open(path, mode, *a, **kw)
            return FullFile(f) if "a" in mode and str(path).endswith(".journal") else f

        real_write = records.write_atomic

        def write_atomic(path, text, fsync=True):
            if disk.full:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_write(path, text, fsync)

        monkeypatch.setattr(jmod, "open", journal_open, raising=False)
        monkeypatch.setattr(records, "write_atomic", write_atomic)


def test_disk_full_mid_game_keeps_following_and_writes_everything_back(tmp_path, monkeypatch):
    disk = Disk(monkeypatch)
    src = next(replay.load_games("chess", os.path.join(os.path.dirname(__file__), "..", "data", "chess",
                                                       "hlotze-pgn2tex_Capablanca.pgn"), 1))
    jp = str(tmp_path / "g.journal")
    states, alerts = [], []

    class Engine(eng_mod.BridgeEngine):
        def __init__(self, *a, **kw):
            kw.update(journal_path=jp, out_dir=str(tmp_path), record_name="g")
            super().__init__(*a, **kw)
            self.on_storage = alerts.append

        def _act(self, decs):
            n = len(self.game.moves)
            disk.full = 10 <= n < 20          # the disk is full from move 10 to move 20
            return super()._act(decs)

    real = eng_mod.BridgeEngine
    monkeypatch.setattr(replay, "BridgeEngine", Engine)
    try:
        eng, expected, _ = replay.replay_game("chess", src, seed=1, noise=0.2,
                                              engine_kwargs={"publish": lambda st, d: states.append(st)})
    finally:
        monkeypatch.setattr(replay, "BridgeEngine", real)
    assert eng.game.sans() == expected                               # the game was followed throughout
    assert any("cannot write" in a and "No space left" in a for a in alerts), alerts
    assert any(s["status"] == "alert" and "kept in memory" in (s["alert"] or "") for s in states)
    assert "nothing lost" in alerts[-1] and eng.storage_alert is None
    eng.retry_storage(10 ** 9)
    eng.close()
    # the journal holds every input, in order, and rebuilds the same game; the record has every move
    again = eng_mod.resume(jp)
    assert again.game.sans() == expected
    again.close()
    text = (tmp_path / "g.pgn").read_text()
    assert all(san in text for san in expected[-3:]) and text.count("{[%clk") == len(expected)


def test_a_new_game_on_a_full_disk_starts_and_writes_its_journal_when_the_disk_has_room(tmp_path, monkeypatch):
    """Issue 34: the journal's header refused (the event started, or loaded a round, with the disk full)
    is held in memory like any entry, instead of stopping the board."""
    disk = Disk(monkeypatch)
    disk.full = True
    alerts = []
    jp = str(tmp_path / "g.journal")
    eng = eng_mod.BridgeEngine("chess", journal_path=jp, out_dir=str(tmp_path), record_name="g")
    eng.on_storage = alerts.append
    assert eng.storage_alert and "No space left" in eng.storage_alert and eng.unwritten[0]["k"] == "header"
    eng.operator(1000, "result", "1-0")
    assert eng.game.result == "1-0" and os.path.getsize(jp) == 0
    disk.full = False
    assert eng.retry_storage(10 ** 6) and not eng.unwritten
    eng.close()
    again = eng_mod.resume(jp)
    assert again.game.result == "1-0"
    again.close()
