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

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.core.nlp import fold, normalise
from chatbot.core.parsing import Later, NotLegal, ParseContext, Parsed, ParseResult
from chatbot.core.ports import THEN
from chatbot.games.afrikan_tahti.names import (
    FROM,
    TO,
    TOWARD,
    TOWARD_STEP,
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
from engines.afrikan_tahti.board import DIST_LAND, GOALS, HAZARDS, PLACE_SET, Leg, node_of
from engines.afrikan_tahti.model import (
    AIR_FARE,
    FLIP_PRICE,
    SEA_FARE,
    PawnView,
    View,
    roll_only_when_broke,
    seat_of,
)
from engines.afrikan_tahti.retkikunnat.cards import BUY_DISCARD_PRICE
from engines.afrikan_tahti.retkikunnat.content import EXTRA_STEPS, sale_value
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
    "aim",
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
ROW_WIDTH = {"place": 3, "start": 3, "reroll": 3, "swap": 3, "choose": 3, "character": 2, "aim": 1}
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
    used, _then, aim = notation.partition(f"{THEN}{TOWARD_STEP} ")
    if aim and used.startswith("use "):
        return t.gettext("✨ {card} {toward}").format(
            card=card_name(used.split()[1], t), toward=place(aim, t, TOWARD)
        )
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
        case [step, pid] if step == f"roll{THEN}{TOWARD_STEP}":
            n = next((k for p, k in aims(view) if p == pid), 0)
            return t.ngettext(
                "🎲 Roll and head {to} ({n} step)", "🎲 Roll and head {to} ({n} steps)", n
            ).format(to=place(pid, t, TO), n=n)
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
            if _others_here(view):
                return t.gettext("➡ Go on (a duel or a trade)")
            return t.gettext("➡ Go on")
        case ["end_phase;end_phase"] if view.phase == "phase2":
            return t.gettext("✋ End the turn")
        case ["end_phase;flip"] if view.phase == "phase2":
            price = x.flip_price if x.flip_price is not None else FLIP_PRICE
            return t.gettext("🪙 Flip the token ({price})").format(price=money(price, t))
        case ["end_phase;flip_roll"] if view.phase == "phase2":
            return t.gettext("🎲 Roll for the token ({faces})").format(faces=_faces(x))
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


def _others_here(view: View) -> bool:
    """Whether another pawn stands where the seat on turn does (Phase 3 may be a duel or a trade)."""
    seat = view.turn
    if not isinstance(seat, int) or not 0 <= seat < len(view.pawns):
        return False
    node = view.pawns[seat].node
    return node is not None and any(p.node == node for s, p in enumerate(view.pawns) if s != seat)


#: characters whose ability is a Phase-3 choice besides the flip (a swap of stacks, a peek)
PHASE3_CHARACTERS = frozenset({"fortune_seeker", "archaeologist"})


#: the places a roll may head for, nearest first
AIMS = 3


def flippable(view: View, seat: int) -> set[str]:
    """The places whose top token ``seat`` may flip by the rules (spec §5.2: an equipment token; a
    discovery token with a complete expedition, or once no equipment token is left), all public."""
    tops = dict(view.face_down)  # bottom first: the last one of a place is its top token
    x = expansion_of(view)
    if x is None:
        return set(tops)
    equipment = any(tid.startswith("e") for tid in tops.values())
    complete = x.players[seat].complete
    return {pid for pid, tid in tops.items() if tid.startswith("e") or complete or not equipment}


def aims(view: View) -> list[tuple[str, int]]:
    """The places a pawn on land may head for before its roll, with their distance by land: the
    places whose token it may flip, or Tangier and Cairo for a holder of a winning item; nearest
    first, at most :data:`AIMS`."""
    seat = view.turn
    if not isinstance(seat, int) or not 0 <= seat < len(view.pawns):
        return []
    me = view.pawns[seat]
    if me.node is None or me.voyage is not None or me.captured:
        return []
    wanted = set(GOALS) if me.items else flippable(view, seat)
    found = sorted(
        (DIST_LAND[pid][me.node], pid) for pid in wanted if pid != me.node and me.node in DIST_LAND[pid]
    )
    return [(pid, n) for n, pid in found[:AIMS]]


#: after the roll, these let the mover change the die (Compass, Maps): a real choice, so a move that
#: does not reach the place headed for is asked
DIE_CHANGES = frozenset({"reroll_move", "adjust"})


def toward(pid: str, view: View, legal: Sequence[str]) -> str | None:
    """The move a roll "toward ``pid``" makes: to ``pid`` when the die reaches it (and the stop
    there, should the move be asked again at a port with steps left), else the one move by land
    whose end is nearest to it (and nearer than the pawn is now), never onto a hazard dot; None
    (the move is asked) when two are as near, or when the die may still be changed."""
    seat = view.turn
    x = expansion_of(view)
    if view.phase != "move" or not isinstance(seat, int) or (x is not None and x.prompt is not None):
        return None
    if f"move {pid}" in legal:
        # arrived with steps left at a port, the move is asked again (sail on or stop): it stops
        return f"move {pid}" if view.pawns[seat].node == pid else f"move {pid}{THEN}{TOWARD_STEP} {pid}"
    distance = DIST_LAND.get(pid, {})
    here = distance.get(view.pawns[seat].node or "")
    if here is None or any(n.split()[0] in DIE_CHANGES for n in legal):
        return None
    near: list[tuple[int, bool, str]] = []
    for notation in legal:
        words = notation.split()
        to = node_of(words[1]) if words[0] == "move" and len(words) == 2 else None
        if to is not None and to not in HAZARDS and to in distance:
            near.append((distance[to], to not in PLACE_SET, notation))
    if not near:
        return None
    best = min(near)
    ties = [n for d, dot, n in near if (d, dot) == best[:2]]
    return best[2] if len(ties) == 1 and best[0] < here else None


def resolve_step(step: str, view: View, legal: Sequence[str]) -> str | None:
    """A later step of a button or of typed words, now that the steps before it are done."""
    match step.split():
        case [verb, pid] if verb == TOWARD_STEP:
            return toward(pid, view, legal)
    return step


def with_steps(legal: Sequence[str], view: View) -> list[str]:
    """The legal actions with the buttons of two steps a plain turn takes in one press (issue #28):
    before the roll, the roll and the move toward a place it heads for (:func:`toward`: there when
    the die reaches it, else as near as the die allows); in Phase 2, the flip the place allows
    now and the end of the turn (end Phase 2, then flip or end Phase 3), while "go on" to Phase 3
    stays only where it offers more (a duel or a trade, a character's ability)."""
    x = expansion_of(view)
    if "roll" in legal and view.phase == "declare" and (x is None or x.prompt is None):
        return [*legal, *(f"roll{THEN}{TOWARD_STEP} {pid}" for pid, _n in aims(view))]
    if x is None or x.prompt is not None or view.phase != "phase2" or "end_phase" not in legal:
        return list(legal)
    seat = view.turn
    out = [n for n in legal if n != "end_phase"]
    out.extend(_steps_toward(legal, view))
    character = x.players[seat].character if isinstance(seat, int) else None
    if _others_here(view) or character in PHASE3_CHARACTERS:
        out.append("end_phase")
    if x.flip_price is not None and isinstance(seat, int):
        cash = view.pawns[seat].cash
        if cash >= x.flip_price:
            out.append(f"end_phase{THEN}flip")
        if cash < x.flip_price or not roll_only_when_broke(view.options):
            out.append(f"end_phase{THEN}flip_roll")
    out.append(f"end_phase{THEN}end_phase")
    return out


#: expedition cards whose use in Phase 2 is a walk of extra steps (Orienteering: one after a low roll)
STEP_CARDS = frozenset(EXTRA_STEPS) | {"orienteering"}


def _steps_toward(legal: Sequence[str], view: View) -> list[str]:
    """Phase 2 off the places the mover may flip: each extra-step card's use with its walk toward
    the nearest of them (the walk is asked as usual when the die's place is not nearer, or when a
    reaction window comes between)."""
    seat = view.turn
    found = aims(view)
    if not found or not isinstance(seat, int) or view.pawns[seat].node in flippable(view, seat):
        return []
    aim = found[0][0]
    return [
        f"{n}{THEN}{TOWARD_STEP} {aim}"
        for n in legal
        if n.split()[0] == "use" and len(n.split()) == 2 and cid(n.split()[1]) in STEP_CARDS
    ]


def rows(legal: Sequence[str], view: View, ctx: RenderContext) -> list[list[tuple[str, str]]]:
    """Rows of (label, notation), grouped by kind in :data:`ROW_ORDER`."""
    groups: dict[str, list[tuple[str, str]]] = {}
    seen: dict[str, int] = {}
    for notation in with_steps(legal, view):
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
    if notation.startswith(f"roll{THEN}"):
        return "aim"
    if f"{THEN}{TOWARD_STEP} " in notation:
        notation = notation.split(THEN)[0]  # a card's walk toward a place: with the card's use
    words = notation.split(THEN)[-1].split()
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


#: the single actions that are no decision: the roll that must come (the move's, the release's, the
#: danger and duel dice), the one end a move can have, a phase with nothing else in it, the one option
#: of a choice, keeping dice no card can reroll; never a fare, a flip or a card
AUTOMATIC_VERBS = frozenset({"roll", "move", "end_phase", "choose", "reroll_done"})
#: where no hand card can be played, so that one legal action tells nothing of a hand
NO_PLAY_PHASES = frozenset({"release", "move"})
NO_PLAY_PROMPTS = frozenset({"duel", "choose"})


def automatic(notation: str, public_view: View) -> bool:
    """Whether ``notation``, the only legal action of the seat to act, is taken without a press
    (see :meth:`GameUI.automatic`). With Retkikunnat a hand card may be another answer where the
    phase or question takes one, so there only a seat with no hand cards (a public count) has none."""
    if notation.split()[0] not in AUTOMATIC_VERBS:
        return False
    x = expansion_of(public_view)
    if x is None:
        return True
    if x.prompt is not None:
        if x.prompt.kind in NO_PLAY_PROMPTS:
            return True
    elif public_view.phase in NO_PLAY_PHASES:
        return True
    return all(x.players[s].hand_count == 0 for s in public_view.to_act)


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
    first, *then = found[0].split(THEN)
    return Parsed((ctx.legal[legal.index(first)], *(Later(n) for n in then)))


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
