"""The board picture tells the whole public state (issue #28, part 3): each player's character
(Retkikunnat) under the name, the danger in progress (a warning sign at the pawn and a line in the
legend), and every sign the picture draws explained in the legend, the flipped backpack and mask
included (they were unexplained white dots). Checked on the scene and on the pixels."""

from __future__ import annotations

import io
import random
from dataclasses import replace

from PIL import Image, ImageChops, ImageDraw

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games.afrikan_tahti import picture
from chatbot.games.afrikan_tahti.names import card_name, token_word
from chatbot.games.afrikan_tahti.picture import (
    BOARD_H,
    DANGER,
    SEAT_COLOURS,
    WHITE,
    _mark,
    _marker,
    board_png,
    scene_of,
    xy,
)
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.model import Options
from engines.afrikan_tahti.retkikunnat.model import DangerView

FI, EN = translator("fi"), translator("en")
NAMES = ("Anna", "Bertta", "Ceder", "Daavid")


def ctx(t=FI, n: int = 3) -> RenderContext:
    return RenderContext(t, NAMES[:n], None)


def views(players: int, options: Options, seed: str, plies: int = 400):
    st = ENGINE.new_game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(plies):
        if ENGINE.outcome(st) is not None:
            return
        yield ENGINE.view(st, None)
        seat = ENGINE.to_act(st)[0]
        legal = ENGINE.legal_actions(st, seat)
        st, _ = ENGINE.apply(st, seat, ENGINE.ai_action("smart", ENGINE.view(st, seat), legal, rng))


def pixels(im: Image.Image) -> list[tuple[int, ...]]:
    flat = getattr(im, "get_flattened_data", None) or im.getdata
    return list(flat())


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def count_colour(im: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int]) -> int:
    part = im.crop(box)
    return sum(1 for px in pixels(part) if near(px, colour))


def test_each_players_character_is_under_the_name():
    view = next(v for v in views(3, Options(), "hahmot") if all(p.character for p in v.x.players))
    scene = scene_of(view, ctx())
    assert scene.characters == tuple(card_name(p.character, FI) for p in view.x.players)
    assert all(scene.characters) and len(scene.characters) == 3
    assert scene_of(view, ctx(EN)).characters != scene.characters  # in the recipient's language
    # the pixels: ink under each name where a character is named, none without characters
    drawn = image(board_png(view, ctx()))
    nobody = replace(
        view, x=replace(view.x, players=tuple(replace(p, character=None) for p in view.x.players))
    )
    plain = image(board_png(nobody, ctx()))
    assert drawn.size[1] > plain.size[1]  # a second line per row of players
    for seat in range(3):
        cx = 10 + (picture.BOARD_W // 2) * (seat % 2)
        cy = BOARD_H + 10 + (picture.LEGEND_ROW + 14) * (seat // 2) + picture.LEGEND_ROW // 2
        under = drawn.crop((cx + 24, cy + 9, cx + 140, cy + 21))
        assert any(not near(px, WHITE, 40) for px in pixels(under)), seat


def _danger_view():
    for v in views(4, Options(), "vaara", 900):
        if v.x.danger is not None and v.pawns[v.x.danger.seat].node is not None:
            return v
    raise AssertionError("no danger in 900 plies")


def test_the_danger_in_progress_is_in_the_picture():
    view = _danger_view()
    d: DangerView = view.x.danger
    scene = scene_of(view, ctx(n=4))
    assert scene.danger_seat == d.seat
    assert scene.danger is not None and scene.danger.startswith(f"Vaaratilanne: {NAMES[d.seat]} – ")
    assert "tarvitaan" in scene.danger and "×" in scene.danger
    calm = replace(view, x=replace(view.x, danger=None))
    assert scene_of(calm, ctx(n=4)).danger is None
    with_danger, without = image(board_png(view, ctx(n=4))), image(board_png(calm, ctx(n=4)))
    # on the board only the warning sign beside the pawn differs
    box = ImageChops.difference(
        with_danger.crop((0, 0, picture.BOARD_W, BOARD_H)), without.crop((0, 0, picture.BOARD_W, BOARD_H))
    ).getbbox()
    assert box is not None
    x, y = xy(view.pawns[d.seat].node)
    assert box[0] >= x - 40 and box[2] <= x + 40 and box[1] >= y - 40 and box[3] <= y + 10, (box, (x, y))
    assert count_colour(with_danger, DANGER, (0, 0, picture.BOARD_W, with_danger.size[1])) > 40
    assert count_colour(without, DANGER, (0, 0, picture.BOARD_W, without.size[1])) == 0
    assert with_danger.size[1] == without.size[1] + picture.LEGEND_ROW  # the danger's own legend line


def test_every_sign_has_a_legend_entry_and_each_entry_draws_its_sign():
    for options, kinds in (
        (Options(), ("star", "ruby", "emerald", "topaz", "horseshoe", "robber", "expedition", "danger")),
        (Options(expansion=False), ("star", "ruby", "emerald", "topaz", "horseshoe", "robber", "blank")),
    ):
        view = ENGINE.view(ENGINE.new_game(3, "selite", options), None)
        scene = scene_of(view, ctx())
        legend = dict(zip(scene.marks, scene.legend, strict=True))
        for kind in kinds:  # every flipped-token marker, named as the table names the token
            assert legend[kind] == token_word(kind, FI), kind
        assert {"goal", "place", "hazard", "captured", "lost"} <= set(legend)
        assert legend[""] == "Käännetyt:"
        for mark in scene.marks:  # each entry's sign is drawn
            if not mark:
                continue
            im = Image.new("RGB", (30, 30), WHITE)
            _mark(ImageDraw.Draw(im), mark, (8, 15), picture._font(11))
            assert im.getbbox() is not None and any(px != WHITE for px in pixels(im)), mark
    assert (
        "varustekiekko"
        not in scene_of(ENGINE.view(ENGINE.new_game(3, "p", Options(quick_game=True)), None), ctx()).legend
    )


def test_backpack_and_mask_are_signs_of_their_own_not_white_dots():
    drawn = {}
    for kind in ("expedition", "danger", "blank"):
        im = Image.new("RGB", (20, 20), (236, 219, 176))
        _marker(ImageDraw.Draw(im), (10, 10), kind)
        drawn[kind] = im
        colours = {px for px in pixels(im)}
        if kind != "blank":
            assert not near(im.getpixel((10, 12)), WHITE, 30), kind  # no longer a white disc
            assert len(colours) >= 3  # the ground, the sign's colour and its ink
    assert drawn["expedition"].tobytes() != drawn["danger"].tobytes()


def test_the_legend_is_drawn_under_the_players():
    view = next(v for v in views(3, Options(), "merkit") if v.revealed)
    drawn = image(board_png(view, ctx()))
    scene = scene_of(view, ctx())
    top = BOARD_H + 10 + (picture.LEGEND_ROW + 14) * 2
    # the first legend row starts with the equipment token's disc: its colour is there
    assert count_colour(drawn, picture.TOKEN_BACK, (0, top, 40, top + picture.LEGEND_ROW)) > 20
    assert drawn.size[1] - top >= picture.LEGEND_ROW * 3  # every entry fits in a few rows
    assert len(scene.legend) >= 20
    # seat colours of the legend's player dots survive the palette exactly
    for seat in range(3):
        cx = 10 + (picture.BOARD_W // 2) * (seat % 2) + 9
        cy = BOARD_H + 10 + (picture.LEGEND_ROW + 14) * (seat // 2) + picture.LEGEND_ROW // 2
        assert drawn.getpixel((cx - 5, cy)) == SEAT_COLOURS[seat]
