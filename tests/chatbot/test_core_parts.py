"""The core's collaborators keep to their jobs: drawing a match stores nothing (the use case that
changed it has planned its deadlines already), and the table still says when the reminder comes."""

from __future__ import annotations

from typing import Any

import pytest

from chatbot.core.decoded import Decoded
from chatbot.core.i18n import translator
from chatbot.core.ports import Repository
from chatbot.core.render import Renderer
from tests.chatbot.table import Table

#: what a repository call that changes something starts with
WRITES = (
    "set_",
    "kv_set",
    "create_",
    "update_",
    "start_",
    "commit_",
    "outbox_",
    "drop_",
    "release_",
    "prune",
)
WRITES += ("move_room", "due_deadlines")


class ReadOnly:
    """The repository, refusing every call that would change something."""

    def __init__(self, repo: Repository) -> None:
        self._repo = repo

    def __getattr__(self, name: str) -> Any:
        if name.startswith(WRITES):
            raise AssertionError(f"the renderer called repo.{name}")
        return getattr(self._repo, name)


def test_drawing_a_match_stores_nothing():
    table = Table(seed="pure")
    table.say("matti", "uusi majavajengi tahti=päivä")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    match = table.match()
    assert match.status == "running" and table.repo.deadlines(match.id)
    core = table.core
    repo: Any = ReadOnly(table.repo)
    renderer = Renderer(repo, core.games, core.uis, Decoded(repo, core.games), core.settings, core.clock)
    with table.repo.unit():
        room = table.repo.room_by_id(match.room_id)
        out = renderer.render_match(match, room, events=())
        assert out[0].key == f"table:{match.id}" and "⏰" in out[0].text  # the stored reminder, read
        assert any(o.private and o.buttons for o in out)  # the seat to act has its prompt
        for seat in range(len(match.seats)):
            assert renderer.hint(match, seat, translator("fi"), private=True)
        renderer.lobby(match, room)


def test_the_read_only_repository_refuses_writes():
    repo: Any = ReadOnly(Table().repo)
    with pytest.raises(AssertionError):
        repo.set_deadlines(1, [])
