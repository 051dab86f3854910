"""One JSON codec for stored outbound messages (the Matrix send queue, the Telegram messages held
for someone who has not opened the bot): everything survives, and rows in the formats the two
transports wrote before still load."""

from __future__ import annotations

import base64
import json
from dataclasses import replace

from chatbot.core.types import PROMPT, TABLE, Button, Outbound

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))


def _full() -> Outbound:
    return Outbound(
        "telegram",
        "Vuorossa: Aino",
        user_id="42",
        lang="en",
        key="table:3",
        reply_to="17",
        buttons=(
            (Button("Nosta", "3:5:draw"), Button("Koputa", "3:5:knock")),
            (Button("Avaa", "https://t.me/x?start=m3"),),
        ),
        image=PNG,
        role=TABLE,
        match_id=3,
        version=5,
    )


def test_every_field_survives_json_text():
    out = _full()
    data = json.loads(json.dumps(out.to_json()))
    assert Outbound.from_json(data) == out
    assert data["image"] == base64.b64encode(PNG).decode()  # one format on the way out: base64
    prompt = Outbound("telegram", "Sinun vuorosi", user_id="7", role=PROMPT, match_id=3, version=5, seat=2)
    assert Outbound.from_json(json.loads(json.dumps(prompt.to_json()))) == prompt
    plain = Outbound("matrix", "hei", chat_id="!r:x")
    assert Outbound.from_json(json.loads(json.dumps(plain.to_json()))) == plain


def test_old_telegram_rows_load():
    # what telegram/delivery.py wrote before: base64 image, no reply_to
    old = {
        "platform": "telegram",
        "text": "Vuorossa: Aino",
        "chat_id": None,
        "user_id": "42",
        "buttons": [[["Nosta", "3:5:draw"], ["Koputa", "3:5:knock"]], [["Avaa", "https://t.me/x?start=m3"]]],
        "key": "table:3",
        "lang": "en",
        "image": base64.b64encode(PNG).decode(),
    }
    # a row without a role was a table when its key said so
    assert Outbound.from_json(old) == replace(_full(), reply_to=None, version=None)
    assert Outbound.from_json({**old, "key": None}).role == ""


def test_old_matrix_rows_load():
    # what matrix.py wrote before: the image in hex
    old = {
        "platform": "matrix",
        "text": "t",
        "chat_id": "!r:x",
        "user_id": None,
        "buttons": [],
        "image": PNG.hex(),
        "key": None,
        "reply_to": "$ev",
        "lang": None,
    }
    assert Outbound.from_json(old) == Outbound("matrix", "t", chat_id="!r:x", image=PNG, reply_to="$ev")
