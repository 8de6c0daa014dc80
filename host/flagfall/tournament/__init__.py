"""Tournaments as files and arithmetic: a round's pairings in from the pairing program's files
(`pairings`, `trf`), their typed `model`, the round's results out (`trf`) and the `standings`.

Pure Python with no dependency on the bridge, the web server or the event process: `flagfall.event`
(a round being played) and `flagfall.broadcast` (the public standings) both build on it.
"""
from .model import (Pairing, PairingsError, Player, Round, Unpaired, normalise_result, slug,
                    tags)
from .teams import BoardScale, Match, MatchScoring, Team, TeamEvent
from .pairings import kind_of, parse_csv_pairings, parse_pgn_pairings, read_pairings
from .trf import parse_trf, read_trf, round_from_trf, write_results_trf, write_results_trf_file

__all__ = ["Pairing", "PairingsError", "Player", "Round", "Unpaired", "normalise_result", "slug",
           "tags", "kind_of", "parse_csv_pairings", "parse_pgn_pairings", "read_pairings",
           "parse_trf", "read_trf", "round_from_trf", "write_results_trf", "write_results_trf_file",
           "BoardScale", "Match", "MatchScoring", "Team", "TeamEvent"]
