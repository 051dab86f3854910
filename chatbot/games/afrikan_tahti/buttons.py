"""Afrikan Tähti buttons: the label of each legal action, the rows they sit in, which of them the
group may see, and the line above a seat's private buttons.

Labels read the mover's situation from the view: a move's label counts the steps of the path the
engine takes (its own move menu and chosen path) and names the place ahead of a dot; two dots that
would read alike get "#2". The base game hides nothing a button could reveal, so the group gets
every button; with Retkikunnat only verbs that reveal nothing hidden (no hand cards, peeks or
offers) are shown there, and prompts answered in private show none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chatbot.core.i18n import translator
from chatbot.core.nlp import fold, normalise
from chatbot.core.parsing import NotLegal, ParseContext, Parsed, ParseResult
from chatbot.core.ports import RenderContext
from chatbot.games.afrikan_tahti.names import (
    FROM,
    TO,
    TOWARD,
    VIA,
    ahead,
    card_name,
    cid,
    items_text,
    money,
    move_menu_of,
    offer_items,
    option_text,
    path_of,
    place,
    sea_leg,
    target_text,
)
from chatbot.games.afrikan_tahti.render import expansion_of
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.board import HAZARDS, PLACE_SET, Leg, node_of
from engines.afrikan_tahti.model import AIR_FARE, FLIP_PRICE, SEA_FARE, PawnView, View, seat_of
from engines.afrikan_tahti.retkikunnat.cards import BUY_DISCARD_PRICE
from engines.afrikan_tahti.retkikunnat.content import sale_value
from engines.afrikan_tahti.retkikunnat.model import XView
from engines.afrikan_tahti.retkikunnat.predicates import SEAPLANE_PRICE

BASE_VERBS = frozenset(
    {"start", "roll", "move", "board", "free_sail", "fly", "flip", "flip_roll", "stay", "end_phase"}
)
#: expansion verbs whose buttons reveal nothing hidden (hand cards, peeks, offers stay private)
GROUP_VERBS = BASE_VERBS | {
    "character",
    "seaplane",
    "gem_roll",
    "reroll_move",
    "adjust",
    "use",
    "reroll_done",
    "sell",
    "peek",
    "buy_discard",
    "duel",
    "exchange",
    "accept",
    "decline",
}
#: the row group of each expansion verb that has its own rows
EXPANSION_GROUPS = {
    "character": "character",
    "use": "use",
    "reroll": "reroll",
    "choose": "choose",
    "play": "play",
    "duel": "duel",
    "sell": "sell",
    "hold": "hold",
    "unhold": "hold",
    "swap_stack": "swap",
    "offer": "offer",
    "discard": "discard",
}
#: the order of the row groups, and how many buttons one row of a group holds (2 unless named)
ROW_ORDER = (
    "stop",
    "roll",
    "place",
    "dot",
    "board",
    "free_sail",
    "fly",
    "flip",
    "start",
    "answer",
    "character",
    "use",
    "reroll",
    "choose",
    "play",
    "duel",
    "sell",
    "hold",
    "swap",
    "offer",
    "discard",
    "other",
)
ROW_WIDTH = {"place": 3, "start": 3, "reroll": 3, "swap": 3, "choose": 3, "character": 2}
#: offers beyond these are typed ("tarjoan Matille Ratsun 200:lla")
OFFER_BUTTONS = 6


# --------------------------------------------------------------------------------------------------
# Labels
# --------------------------------------------------------------------------------------------------


def phrase(notation: str, view: View, ctx: RenderContext) -> str | None:
    """The words after "You can" in a hint, one per kind of base-game action ("roll the die", "fly");
    None for the expansion's actions, whose labels name their cards."""
    t = ctx.t
    if expansion_of(view) is not None:
        return None
    match notation.split():
        case ["start", _]:
            return t.gettext("choose where you start")
        case ["roll"]:
            return t.gettext("roll the die")
        case ["board", _] | ["free_sail", _]:
            return t.gettext("sail")
        case ["fly", _]:
            return t.gettext("fly")
        case ["flip"]:
            return t.gettext("flip the token")
        case ["flip_roll"]:
            return t.gettext("try to flip the token by the die")
        case ["stay"]:
            return t.gettext("stay where you are")
        case ["end_phase"] if view.phase == "after_move":
            return t.gettext("leave the token as it is")
        case ["move", *_]:
            return t.gettext("move your pawn as far as the die shows")
    return None


def label(notation: str, view: View, ctx: RenderContext) -> str:
    """A short button label for a legal action; a notation this module does not know as it is."""
    t = ctx.t
    x = expansion_of(view)
    if x is not None:
        text = expansion_label(notation, view, x, ctx)
        if text is not None:
            return text
    phase = view.phase
    mover = view.turn
    me = view.pawns[mover] if isinstance(mover, int) and 0 <= mover < len(view.pawns) else None
    match notation.split():
        case ["start", pid]:
            return t.gettext("Start {place}").format(place=place(pid, t, FROM))
        case ["roll"]:
            if phase == "release":
                return t.gettext("🎲 Roll to get free")
            if me is not None and me.voyage is not None:
                return t.gettext("🎲 Roll and sail on")
            return t.gettext("🎲 Roll the die")
        case ["board", pid]:
            fare = x.sea_fare if x is not None and x.sea_fare is not None else SEA_FARE
            if fare == 0:
                return t.gettext("⛵ Sail {to} (free)").format(to=place(pid, t, TO))
            return t.gettext("⛵ Sail {to} ({fare})").format(to=place(pid, t, TO), fare=money(fare, t))
        case ["free_sail", pid]:
            if me is not None and me.voyage is not None:
                return t.gettext("⛵ Sail on {to}").format(to=place(pid, t, TO))
            return t.gettext("⛵ Free passage {to}").format(to=place(pid, t, TO))
        case ["fly", pid]:
            fare = x.air_fare if x is not None and x.air_fare is not None else AIR_FARE
            return t.gettext("✈️ Fly {to} ({fare})").format(to=place(pid, t, TO), fare=money(fare, t))
        case ["flip"]:
            price = x.flip_price if x is not None and x.flip_price is not None else FLIP_PRICE
            return t.gettext("🪙 Flip the token ({price})").format(price=money(price, t))
        case ["flip_roll"]:
            return t.gettext("🎲 Roll for the token (4–6)")
        case ["stay"]:
            return t.gettext("⏸ Stay")
        case ["end_phase"]:
            return t.gettext("✋ Don't flip") if phase == "after_move" else t.gettext("End the phase")
        case ["move", code, *rest]:
            return _move_label(code, rest, view, me, ctx)
    return notation


def _move_label(code: str, rest: list[str], view: View, me: PawnView | None, ctx: RenderContext) -> str:
    """The steps the move really takes and where it ends: "→ Kairo (4)" for a place, "2 askelta
    Egyptin suuntaan (perille 1)" for a dot, "⛵ 3 askelta Suakiniin päin" for a stop at sea."""
    t = ctx.t
    to = node_of(code) or code
    via = node_of(rest[1]) if len(rest) == 2 else None
    if me is not None and to == me.node and via is None:
        return (
            t.gettext("⏹ Stop here ({place})").format(place=place(to, t))
            if to in PLACE_SET
            else t.gettext("⏹ Stop here")
        )
    seat = view.turn
    menu = move_menu_of(view, seat) if me is not None and seat is not None else None
    path = path_of(menu, to, via)
    sail = sea_leg(view, seat, menu, to) if not path and seat is not None else None
    if sail is not None:
        return _sail_label(to, *sail, ctx)
    steps = len(path)
    if to not in PLACE_SET:
        prev = path[-2] if len(path) > 1 else (me.node or to if me is not None else to)
        toward = ahead(prev, to)
        # the nearest place ahead and how far it still is: two dots toward the same place differ
        text = (
            t.ngettext("{n} step {toward} ({k} to go)", "{n} steps {toward} ({k} to go)", steps).format(
                n=steps, toward=place(toward[0][0], t, TOWARD), k=toward[0][1]
            )
            if toward
            else t.ngettext("{n} step", "{n} steps", steps).format(n=steps)
        )
        return ("⚠️ " + text) if to in HAZARDS else text
    options = (menu.paths(to) if menu is not None else None) or ()
    if via is None and len(options) > 1:
        # name the canonical path's distinguishing place, so both buttons read differently
        others = {p for path_ in options[1:] for p in path_[:-1] if p in PLACE_SET}
        mine = [p for p in path[:-1] if p in PLACE_SET and p not in others]
        via = mine[0] if mine else None
    if via is not None:
        return t.gettext("→ {place} {via} ({n})").format(place=place(to, t), via=place(via, t, VIA), n=steps)
    return t.gettext("→ {place} ({n})").format(place=place(to, t), n=steps)


def _sail_label(to: str, leg: Leg, start: int, end: int, ctx: RenderContext) -> str:
    """A sail along ``leg`` from index ``start`` to ``to`` at ``end``: in the port ("⛵ Suakin (3)")
    or at sea, where another pawn stands or as far as the die reaches ("⛵ 2 askelta Suakinin
    suuntaan (perille 1)")."""
    t = ctx.t
    steps = end - start
    if to in PLACE_SET:
        return t.gettext("⛵ {place} ({n})").format(place=place(to, t), n=steps)
    text = t.ngettext("{n} step {toward} ({k} to go)", "{n} steps {toward} ({k} to go)", steps).format(
        n=steps, toward=place(leg.dest, t, TOWARD), k=leg.steps - end
    )
    return ("⚠️ ⛵ " if to in HAZARDS else "⛵ ") + text


def _faces(x: XView) -> str:
    """The faces that win a flip roll here, "4–6" or "5–6"."""
    faces = x.flip_faces or (4, 5, 6)
    return f"{min(faces)}–{max(faces)}"


def expansion_label(notation: str, view: View, x: XView, ctx: RenderContext) -> str | None:
    """A button label for an expansion action (None: not one)."""
    t = ctx.t
    pr = x.prompt
    match notation.split():
        case ["character", i]:
            return f"🎭 {card_name(i, t)}"
        case ["seaplane", pid]:
            return t.gettext("🛩 Seaplane {to} ({fare})").format(
                to=place(pid, t, TO), fare=money(SEAPLANE_PRICE, t)
            )
        case ["gem_roll"]:
            return t.gettext("💎 Roll for gems")
        case ["reroll_move"]:
            return t.gettext("🧭 Reroll the move")
        case ["adjust", d]:
            return t.gettext("🗺 {delta} step").format(delta=d)
        case ["use", c]:
            return t.gettext("✨ Use {card}").format(card=card_name(c, t))
        case ["use", c, arg]:
            return t.gettext("✨ {card}: {place}").format(card=card_name(c, t), place=place(arg, t))
        case ["reroll", c, dice]:
            return t.gettext("🎲 Reroll {dice} ({card})").format(
                dice=dice.replace(",", "+"), card=card_name(c, t)
            )
        case ["reroll_done"]:
            return t.gettext("✅ Keep the dice")
        case ["sell", c]:
            return t.gettext("💰 Sell {card} ({amount})").format(
                card=card_name(c, t), amount=money(sale_value(cid(c)), t)
            )
        case ["discard", c]:
            return t.gettext("🗑 Discard {card}").format(card=card_name(c, t))
        case ["hold", c]:
            return t.gettext("⏸ Hold {card}").format(card=card_name(c, t))
        case ["unhold", c]:
            return t.gettext("▶ Auto-use {card}").format(card=card_name(c, t))
        case ["play", c]:
            return t.gettext("🃏 Play {card}").format(card=card_name(c, t))
        case ["play", c, arg] if ":" in arg:
            s, _, target = arg.partition(":")
            seat = seat_of(s)
            return t.gettext("🃏 {card} → {name}: {target}").format(
                card=card_name(c, t),
                name=ctx.name(seat) if seat is not None else s,
                target=card_name(target, t),
            )
        case ["play", c, arg]:
            return t.gettext("🃏 {card} → {place}").format(card=card_name(c, t), place=place(arg, t))
        case ["pass"] if pr is not None and pr.kind in ("window", "reveal"):
            return t.gettext("⏭ Pass this time")
        case ["pass"]:
            return t.gettext("⏭ Pass")
        case ["ask", "never"]:
            return t.gettext("🔕 Pass and don't ask me again")
        case ["ask", "all"]:
            return t.gettext("🔔 Ask me in reaction windows again")
        case ["ask", c]:
            return t.gettext("🔔 Ask me only for {card}").format(card=card_name(c, t))
        case ["duel", s, target]:
            seat = seat_of(s)
            return t.gettext("⚔️ {name}: {target}").format(
                name=ctx.name(seat) if seat is not None else s, target=target_text(target, t)
            )
        case ["offer", s, give, "for", get]:
            seat = seat_of(s)
            return t.gettext("🤝 {name}: {give} for {get}").format(
                name=ctx.name(seat) if seat is not None else s,
                give=items_text(offer_items(give), t),
                get=items_text(offer_items(get), t),
            )
        case ["accept"]:
            if pr is not None and pr.kind == "market_day":
                return t.gettext("🛒 Buy")
            return t.gettext("✅ Accept")
        case ["decline"]:
            return t.gettext("❌ Decline")
        case ["swap_stack", pid]:
            return t.gettext("🔄 Swap with {place}").format(place=place(pid, t))
        case ["peek"]:
            return t.gettext("👁 Peek")
        case ["exchange"]:
            return t.gettext("🔁 Danger card instead")
        case ["buy_discard"]:
            return t.gettext("🛒 Buy from the discard pile ({price})").format(
                price=money(BUY_DISCARD_PRICE, t)
            )
        case ["choose", o]:
            return option_text(o, ctx)
        case ["roll"] if pr is not None and pr.kind in ("danger", "duel"):
            return t.gettext("🎲 Roll the danger dice")
        case ["end_phase"] if view.phase == "phase2":
            return t.gettext("➡ Go on")
        case ["end_phase"] if view.phase == "phase3":
            return t.gettext("✋ End the turn")
        case ["flip"] if view.phase == "phase3":
            price = x.flip_price if x.flip_price is not None else FLIP_PRICE
            return t.gettext("🪙 Flip the token ({price})").format(price=money(price, t))
        case ["flip_roll"] if view.phase == "phase3":
            return t.gettext("🎲 Roll for the token ({faces})").format(faces=_faces(x))
    return None


# --------------------------------------------------------------------------------------------------
# Rows, the group's buttons, the prompt above the private ones, the answer time
# --------------------------------------------------------------------------------------------------


def rows(legal: Sequence[str], view: View, ctx: RenderContext) -> list[list[tuple[str, str]]]:
    """Rows of (label, notation), grouped by kind in :data:`ROW_ORDER`."""
    groups: dict[str, list[tuple[str, str]]] = {}
    seen: dict[str, int] = {}
    for notation in legal:
        text = label(notation, view, ctx)
        seen[text] = seen.get(text, 0) + 1
        if seen[text] > 1:  # two dots can read alike; keep every button distinct
            text = f"{text} #{seen[text]}"
        groups.setdefault(_group(notation, view), []).append((text, notation))
    out: list[list[tuple[str, str]]] = []
    for key in ROW_ORDER:
        items = groups.get(key, [])
        if key == "offer":
            items = items[:OFFER_BUTTONS]
        width = ROW_WIDTH.get(key, 2)
        out.extend(items[i : i + width] for i in range(0, len(items), width))
    return out


def _group(notation: str, view: View) -> str:
    words = notation.split()
    verb = words[0]
    if verb == "move":
        to = node_of(words[1]) or words[1]
        mover = view.turn
        if isinstance(mover, int) and to == view.pawns[mover].node and len(words) == 2:
            return "stop"
        return "place" if to in PLACE_SET else "dot"
    if verb in ("roll", "stay", "gem_roll", "reroll_move", "adjust", "seaplane"):
        return "roll"
    if verb in ("pass", "accept", "decline", "reroll_done", "exchange", "peek", "buy_discard", "ask"):
        return "answer"
    if verb in EXPANSION_GROUPS:
        return EXPANSION_GROUPS[verb]
    if verb in ("flip", "flip_roll", "end_phase"):
        return "flip"
    return verb if verb in ("board", "free_sail", "fly", "start") else "other"


def group_actions(legal: Sequence[str], public_view: View) -> tuple[str, ...]:
    """The legal actions whose buttons the group may see."""
    # The base game hides nothing a button could reveal, so the group gets every button. With the
    # expansion, hand cards are secret; there only the verbs that reveal nothing are shown.
    if not public_view.options.expansion:
        return tuple(legal)
    x = expansion_of(public_view)
    pr = x.prompt if x is not None else None
    if pr is not None and pr.kind not in ("danger", "duel", "choose", "market_day", "exchange"):
        return ()  # windows, Surprise!, offers, lost turns and discards are answered in private
    if pr is not None and pr.kind == "choose" and not pr.options:
        return ()  # a choice among hidden things
    return tuple(n for n in legal if n.split()[0] in GROUP_VERBS)


def prompt_line(view: View, ctx: RenderContext) -> str | None:
    """Above a seat's private buttons when it is someone else's turn: this seat is asked to answer
    (a window, a duel roll, an offer)."""
    if view.seat is not None and view.turn is not None and view.turn != view.seat:
        return ctx.t.gettext("{name}, your answer is needed: choose below.").format(name=ctx.name(view.seat))
    return None


def _label_key(text: str) -> str:
    """A label as typed: no emoji or punctuation, casefolded, ä/ö as a/o ("→ Kairo (4)" = "kairo 4")."""
    text = re.sub(r"[-−](?=\d)", " minus ", text.replace("+", " plus "))
    return " ".join(fold(normalise(text)).split())


def typed_label(text: str, ctx: ParseContext[View]) -> ParseResult | None:
    """The legal action whose button label the text repeats (with its "#2" if two read alike),
    or None. Hand cards, offers and window settings typed in the group are refused there."""
    key = _label_key(text)
    if not key or not ctx.legal or text.rstrip().endswith("?"):  # a question is never a move
        return None
    legal = tuple(ENGINE.notation(a) for a in ctx.legal)  # the labels are made from notations
    found: list[str] = []
    # the speaker's language first; a label of the other language is that button too
    for lang in dict.fromkeys((ctx.lang, "fi", "en")):
        rctx = RenderContext(translator(lang), tuple(ctx.seat_names), ctx.seat)
        found = [n for row in rows(legal, ctx.view, rctx) for label_, n in row if _label_key(label_) == key]
        if found:
            break
    if len(set(found)) != 1:
        return None
    if found[0].split()[0] in ("play", "ask", "offer") and not ctx.private:
        return NotLegal("play_in_private")
    return Parsed((ctx.legal[legal.index(found[0])],))


def window_key(public_view: View) -> str | None:
    """The open quick window (kind, card, owner, opening ply): its deadline runs from its opening."""
    x = expansion_of(public_view)
    pr = x.prompt if x is not None else None
    if pr is None or pr.kind not in ("window", "reveal"):
        return None
    return f"{pr.kind}:{pr.what}:{pr.card}:{pr.owner}:{pr.opened}"


def deadline(public_view: View) -> float | None:
    """Reaction windows (Sabotage, Gotcha!, rescue) and the Surprise! question get a quick answer
    time; silence is a pass."""
    x = expansion_of(public_view)
    pr = x.prompt if x is not None else None
    if pr is not None and pr.kind in ("window", "reveal"):
        return float(public_view.options.response_window_seconds)
    return None
