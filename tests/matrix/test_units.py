"""The Matrix transport's pure helpers (no homeserver needed)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chatbot.core import i18n
from chatbot.core.types import TABLE, Button, Outbound
from chatbot.transports.matrix import (
    message_text,
    options_line,
    png_size,
    strip_mention,
    strip_reply_fallback,
)

pytestmark = pytest.mark.matrix

NAMES = ["@pelibotti:example.org", "pelibotti", "Pelibotti"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pelibotti: nostan", "nostan"),
        ("pelibotti, liity", "liity"),
        ("@pelibotti:example.org laitan toiseen", "laitan toiseen"),
        ("@pelibotti:example.org: koputan", "koputan"),
        ("Pelibotti", ""),
        ("nostan", "nostan"),
        ("Pelibottikin pelaa", "Pelibottikin pelaa"),  # a longer word is not a mention
    ],
)
def test_strip_mention(text, expected):
    assert strip_mention(text, NAMES) == expected


def test_strip_reply_fallback():
    assert strip_reply_fallback("> <@aino:x> Sinun vuorosi\n> toinen rivi\n\nnostan") == "nostan"
    assert strip_reply_fallback("nostan") == "nostan"


def test_buttons_become_one_line_in_the_message_language():
    out = Outbound(
        "matrix",
        "Vuorossa: Aino",
        chat_id="!r:x",
        lang="fi",
        buttons=(
            (Button("Nosta", "1:3:draw"), Button("Nosta", "1:3:draw")),
            (Button("Ota poistosta → 1", "1:3:take 1"),),
        ),
    )
    prefix = i18n.translator("fi").gettext("Options: {options}").split("{options}")[0]
    assert options_line(out) == f"{prefix}1️⃣ Nosta · 2️⃣ Ota poistosta → 1"  # numbered by their reaction keys
    assert message_text(out).startswith("Vuorossa: Aino\n\n")
    many = Outbound(
        "matrix", "x", user_id="@a:x", buttons=(tuple(Button(f"b{i}", str(i)) for i in range(20)),)
    )
    assert options_line(many).endswith("b11 · …")
    assert message_text(Outbound("matrix", "plain", chat_id="!r:x")) == "plain"


def test_outbound_survives_the_stored_queue():
    out = Outbound(
        "matrix",
        "teksti",
        user_id="@a:x",
        buttons=((Button("A", "1:2:a"),),),
        image=b"\x89PNG",
        key="table:1",
        reply_to="$e",
        lang="en",
    )
    assert Outbound.from_json(out.to_json()) == out
    # a queue row as this transport stored it before the one codec: the image in hex
    old = {
        "platform": "matrix",
        "text": "teksti",
        "chat_id": None,
        "user_id": "@a:x",
        "buttons": [[["A", "1:2:a"]]],
        "image": b"\x89PNG".hex(),
        "key": "table:1",
        "reply_to": "$e",
        "lang": "en",
    }
    # stored before messages said what they are: the table is known by its key
    assert Outbound.from_json(old) == replace(out, role=TABLE, match_id=1)


def test_png_size():
    header = (
        b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + (300).to_bytes(4, "big") + (200).to_bytes(4, "big")
    )
    assert png_size(header) == (300, 200)
    assert png_size(b"GIF89a") is None


def test_room_admins_are_power_level_50_and_from_room_version_12_the_creators():
    from chatbot.transports.matrix import RoomPowers

    levels = {
        "type": "m.room.power_levels",
        "state_key": "",
        "content": {"users": {"@mod:x": 50, "@vip:x": 49, "@old:x": 100}, "users_default": 0},
    }

    def create(version: str, extra: tuple[str, ...] = ()) -> dict:
        content = {"room_version": version, "additional_creators": list(extra)}
        return {"type": "m.room.create", "state_key": "", "sender": "@founder:x", "content": content}

    v10 = RoomPowers.from_state([create("10"), levels])
    assert [v10.admin(u) for u in ("@mod:x", "@vip:x", "@old:x", "@founder:x", "@nobody:x")] == [
        True,
        False,
        True,
        False,  # before version 12 a creator's power is what the power levels say
        False,
    ]
    v12 = RoomPowers.from_state([create("12", ("@co:x",)), levels])
    assert v12.admin("@founder:x") and v12.admin("@co:x") and not v12.admin("@vip:x")
