"""A recording test table over the real core and real SQLite: users say things or press buttons,
AI seats move, and every outbound message is kept per chat (errbot's TestBackend in spirit)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from chatbot.compose import new_core
from chatbot.core.ports import Answer
from chatbot.core.types import Inbound, Outbound
from chatbot.storage import SqlRepository

PLATFORM = "test"
GROUP = "g1"


@dataclass
class Table:
    url: str = "sqlite://"
    seed: str | None = "test"  # the base seed; None: each match the seed the chat makes for it
    sent: list[Outbound] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.repo = SqlRepository(self.url)
        self.core = new_core(self.repo, seed=self.seed)

    def _deliver(self, out: Sequence[Outbound]) -> Answer:
        """What the core answered, then whatever became due (AI moves are due at once), as the
        runtime's deadline loop would."""
        self.sent.extend(out)
        answer = out if isinstance(out, Answer) else Answer(out)
        outs = list(out)
        for _ in range(100_000):
            due = self.core.next_due()
            if due is None or due > self.core.clock():
                break
            more = self.core.run_due("table")
            self.sent.extend(more)
            outs.extend(more)
        return replace(answer, messages=outs)

    def run_due(self) -> Answer:
        """The deadline loop once more (after a test moved the clock)."""
        return self._deliver([])

    def say(
        self,
        user: str,
        text: str,
        private: bool = False,
        lang: str | None = None,
        group: str = GROUP,
        key: str | None = None,
        addressed: bool = False,
        name: str | None = None,
        mentions: tuple[str, ...] = (),
        handles: tuple[str, ...] = (),
        reply_to_user: str | None = None,
        handle: str | None = None,
    ) -> Answer:
        """``addressed``: the group message mentions the bot or replies to it; ``name`` is the display
        name (the user id capitalised by default), ``mentions`` the user ids it mentions, ``handles``
        the handles it mentions without an id, ``reply_to_user`` whose message it answers and
        ``handle`` the sender's own handle."""
        msg = Inbound(
            PLATFORM,
            user,
            user.capitalize() if name is None else name,
            user if private else group,
            private,
            text=text,
            lang_hint=lang,
            update_key=key,
            addressed=addressed,
            mentions=mentions,
            handles=handles,
            reply_to_user=reply_to_user,
            user_handle=handle,
        )
        return self._deliver(self.core.handle(msg))

    def press(
        self,
        user: str,
        data: str,
        private: bool = True,
        group: str = GROUP,
        key: str | None = None,
        lang: str | None = None,
    ) -> Answer:
        msg = Inbound(
            PLATFORM,
            user,
            user.capitalize(),
            user if private else group,
            private,
            button=data,
            update_key=key,
            lang_hint=lang,
        )
        return self._deliver(self.core.handle(msg))

    def outbox(self, chat: str | None = None) -> list[Outbound]:
        """Every committed outbound row (of one delivery queue), in commit order."""
        from sqlalchemy import text

        query = "SELECT payload FROM outbox" + (" WHERE chat = :chat" if chat else "") + " ORDER BY id"
        with self.repo.engine.connect() as conn:
            rows = conn.execute(text(query), {"chat": chat} if chat else {}).all()
        return [Outbound.from_json(r[0] if isinstance(r[0], dict) else json.loads(r[0])) for r in rows]

    # --- reading what was sent ----------------------------------------------------------------
    def group_texts(self, group: str = GROUP) -> list[str]:
        return [o.text for o in self.sent if o.chat_id == group]

    def private_texts(self, user: str) -> list[str]:
        return [o.text for o in self.sent if o.user_id == user]

    def last_private(self, user: str) -> Outbound | None:
        mine = [o for o in self.sent if o.user_id == user]
        return mine[-1] if mine else None

    def prompt_for(self, user: str) -> Outbound | None:
        """The latest private message with buttons for ``user`` if it is still current."""
        for o in reversed(self.sent):
            if o.user_id == user and o.buttons:
                return o
        return None

    def match(self):
        room = self.repo.room(PLATFORM, GROUP)
        return self.repo.active_match(room.id)

    def acting_users(self) -> list[str]:
        from engines import GAMES

        m = self.match()
        if m is None or m.state is None:
            return []
        engine = GAMES[m.game]
        state = engine.load(m.state)
        users = []
        for s in engine.to_act(state):
            uid = m.seats[s].user_id
            if uid is not None:
                users.append(self.repo.user_by_id(uid).ext_id)
        return users

    def play_randomly(self, rng: random.Random, limit: int = 5000) -> None:
        """Humans press a random button of their latest prompt until the match ends."""
        for _ in range(limit):
            users = self.acting_users()
            if not users:
                m = self.match()
                assert m is None or m.status != "running", "a running match in which nobody acts"
                return
            prompt = self.prompt_for(users[0])
            assert prompt is not None, f"no prompt for {users[0]}"
            buttons = [b for row in prompt.buttons for b in row]
            self.press(users[0], rng.choice(buttons).data)
        raise AssertionError("match did not end")
