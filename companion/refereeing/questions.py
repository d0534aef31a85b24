"""Questions the referee puts to the table when the camera cannot decide alone.

A camera reading is a proposal. When it fits several moves (a 7 discarded, or played
for its power?), when a card is hard to read, or when the camera cannot see the move at
all (which card a selfie looked at), the page shows a :class:`Question` with one button
per :class:`Option`, and the game waits there. A tap answers with the option's index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Option:
    label: str
    actions: tuple[dict[str, Any], ...] = ()
    """Engine actions (JSON notation) this answer applies, in order."""
    code: str | None = None
    """For a card-reading question: the code the players say it is."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label}
        if self.code is not None:
            out["code"] = self.code
        return out


@dataclass(frozen=True)
class Question:
    id: int
    kind: str
    """``which_move`` (several moves fit), ``who_smacked`` (a smackdown without a slap),
    ``card`` (a doubtful reading), ``unseen`` (a move the camera cannot see)."""
    prompt: str
    options: tuple[Option, ...]
    seat: int | None = None
    """Whose answer it is, when it is one player's (their power); ``None``: anyone's."""
    zone: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "prompt": self.prompt,
            "seat": self.seat,
            "zone": self.zone,
            "options": [option.to_json() for option in self.options],
        }
