"""A finished match stored as the core stores it, without playing it in a chat: the engine's AI plays
every seat and each move goes to the action log with its snapshot (for replay tests on the
transports, where only the record is needed)."""

from __future__ import annotations

from chatbot.core.ports import OVER, RUNNING, SeatRec
from engines import GAMES
from engines.codec import encode
from engines.contract import rng_for


def finished_match(
    repo, platform: str, room: str, people: list[tuple[str, str]], game: str = "majavajengi", options=None
) -> int:
    """The id of a match of ``game`` in ``room`` between ``people`` ((platform user id, name) each),
    played to its end by the engine's default AI."""
    options = dict(options if options is not None else {"rounds": 1} if game == "majavajengi" else {})
    engine = GAMES[game]
    users = [repo.user(platform, ext, name) for ext, name in people]
    seats = tuple(SeatRec(seat=i, name=u.name, user_id=u.id) for i, u in enumerate(users))
    match = repo.create_match(repo.room(platform, room).id, game, options, "stored", users[0].id, seats)
    state = engine.new_game(len(seats), "stored", engine.options_from_dict(options))
    assert repo.start_match(match.id, match.version, seats, engine.dump(state), "stored")
    version = match.version + 1
    while engine.outcome(state) is None:
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        action = engine.ai_action(
            engine.default_ai, engine.view(state, seat), legal, rng_for("t", version, "t")
        )
        state, events = engine.apply(state, seat, action)
        status = OVER if engine.outcome(state) is not None else RUNNING
        notation = engine.notation(action)
        events_json = [encode(e) for e in events]
        assert repo.commit_action(match.id, version, seat, notation, events_json, engine.dump(state), status)
        version += 1
    return match.id
