"""Statistics of the players kept across games, from the history's results.

Pure functions over the history's entries (:meth:`companion.referee.Referee.history`):
per player and game, the matches played to the end, the wins, the win rate, the average
final total and the best round; and head to head, for every two players, who finished
ahead of whom. A match not played to the end (no winner) counts for nothing here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from companion.player_names import is_placeholder


def _counted(player: Mapping[str, Any]) -> bool:
    return player.get("id") is not None or not is_placeholder(str(player.get("name", "")))


@dataclass
class _Tally:
    player: dict[str, Any]
    game: str
    games: int = 0
    wins: int = 0
    totals: list[float] = field(default_factory=list)
    best_round: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "game": self.game,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 3) if self.games else None,
            "average": _tidy(sum(self.totals) / len(self.totals)) if self.totals else None,
            "best_round": _tidy(self.best_round) if self.best_round is not None else None,
        }


def _tidy(value: float) -> float | int:
    value = round(value, 2)
    return int(value) if float(value).is_integer() else value


def player_key(player: Mapping[str, Any]) -> str:
    """A player's key: their id when kept, else their name (an older game's free text)."""
    return f"id:{player['id']}" if player.get("id") is not None else "name:" + str(player.get("name", "")).casefold()


def played_to_the_end(entry: Mapping[str, Any]) -> bool:
    result = entry.get("result") or {}
    return bool(result.get("over")) and bool(result.get("winners"))


def player_stats(entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per player and game (``game`` ``None``: every game together, without the scores,
    which do not add across games), best players first."""
    tallies: dict[tuple[str, str | None], _Tally] = {}
    for entry in entries:
        if not played_to_the_end(entry):
            continue
        result = entry["result"]
        lower = bool(result.get("lower_wins", False))
        rounds: Sequence[Mapping[str, Any]] = result.get("rounds") or []
        for seat_player in entry.get("players", []):
            if not _counted(seat_player):
                continue
            seat = seat_player["seat"]
            key = player_key(seat_player)
            who = {"id": seat_player.get("id"), "name": seat_player["name"]}
            points = [float(r[str(seat)]) for r in rounds if str(seat) in r]
            for game in (str(entry["game"]), None):
                tally = tallies.setdefault((key, game), _Tally(who, game or ""))
                tally.games += 1
                tally.wins += int(bool(seat_player.get("winner")))
                if game is None:
                    continue
                total = seat_player.get("total")
                if isinstance(total, (int, float)):
                    tally.totals.append(float(total))
                for value in points:
                    if tally.best_round is None or (value < tally.best_round if lower else value > tally.best_round):
                        tally.best_round = value
    out = []
    for (_key, game), tally in tallies.items():
        row = tally.to_json()
        row["game"] = game
        if game is None:
            row["average"] = row["best_round"] = None
        out.append(row)
    out.sort(key=lambda r: (r["game"] is not None, r["game"] or "", -(r["win_rate"] or 0), -r["games"],
                            str(r["player"]["name"]).casefold()))
    return out


def head_to_head(entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per game and pair of players who played it together to the end: how often each
    finished ahead of the other (a better total: lower or higher, as the game counts)."""
    pairs: dict[tuple[str, str, str], dict[str, Any]] = {}
    for entry in entries:
        if not played_to_the_end(entry):
            continue
        lower = bool(entry["result"].get("lower_wins", False))
        seated = sorted((p for p in entry.get("players", []) if _counted(p)), key=lambda p: str(p["name"]).casefold())
        for a, b in combinations(seated, 2):
            ka, kb = player_key(a), player_key(b)
            if ka == kb or not isinstance(a.get("total"), (int, float)) or not isinstance(b.get("total"), (int, float)):
                continue
            row = pairs.setdefault((str(entry["game"]), ka, kb), {
                "game": str(entry["game"]), "a": {"id": a.get("id"), "name": a["name"]},
                "b": {"id": b.get("id"), "name": b["name"]}, "games": 0, "a_ahead": 0, "b_ahead": 0, "level": 0})
            row["games"] += 1
            if a["total"] == b["total"]:
                row["level"] += 1
            elif (a["total"] < b["total"]) == lower:
                row["a_ahead"] += 1
            else:
                row["b_ahead"] += 1
    return sorted(pairs.values(), key=lambda r: (r["game"], -r["games"], r["a"]["name"].casefold(),
                                                 r["b"]["name"].casefold()))
