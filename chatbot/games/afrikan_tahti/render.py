"""Afrikan Tähti table and private panel, from views only.

The group table: a title, one line for what the seat to act is doing (or who must answer what), a
line per pawn (with the seat's expedition in Retkikunnat), how far the game has come (the round, the
tokens face down, whether the Star was found), and who carries the Star, the Capetown bonus and the
last roll. The private panel: the seat's own pawn line, and in Retkikunnat
its character, hand cards and peeks, then the question it must answer or its turn line.

Phases this module does not know get the plain "Turn: name", so a new phase reads as a line
instead of breaking the table. Reaction windows never say who may answer: that would tell who
holds which hand card.
"""

from __future__ import annotations

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import Translator
from chatbot.games.afrikan_tahti import cards_generated as cards
from chatbot.games.afrikan_tahti.events import window_setting_line
from chatbot.games.afrikan_tahti.names import (
    AT,
    DECK_NAMES,
    SEAT_MARKERS,
    TO,
    TOKEN_MARKERS,
    TOKEN_ORDER,
    captive_text,
    card_name,
    card_text,
    cid,
    dice_text,
    face_name,
    kind_of,
    money,
    names_list,
    node_text,
    offer_text,
    option_parts,
    option_text,
    place,
    requires_text,
    target_text,
    title,
    token_name,
    token_word,
)
from engines.afrikan_tahti.board import HAZARDS, LEGS
from engines.afrikan_tahti.model import FLIP_PRICE, PawnView, View
from engines.afrikan_tahti.retkikunnat.content import WINDOW_CARDS, card_type, stealable, tradeable
from engines.afrikan_tahti.retkikunnat.model import PlayerX, XView
from engines.afrikan_tahti.retkikunnat.predicates import DUEL_MONEY
from engines.afrikan_tahti.retkikunnat.rules import OFFER_MONEY


def expansion_of(view: View) -> XView | None:
    """The Retkikunnat part of a view; None in the base game."""
    x: XView | None = view.x
    return x


# --------------------------------------------------------------------------------------------------
# The group table
# --------------------------------------------------------------------------------------------------


def table(view: View, ctx: RenderContext) -> str:
    """The public table, short enough for a phone with six players: a title, one line for what the
    seat to act is doing (or who must answer what), one line per player (with the expedition's
    symbols towards 3/3/3 and the hand COUNT in Retkikunnat), the progress line, and one line for
    the Star's carrier, the Capetown bonus and the last roll. The cards themselves and what the
    flipped tokens were are in :func:`detail`."""
    t = ctx.t
    lines = [_title_line(view, t)]
    line = turn_line(view, ctx)
    if line:
        lines.append(line)
    x = expansion_of(view)
    for seat, pawn in enumerate(view.pawns):
        text = pawn_line(seat, pawn, ctx)
        if x is not None and seat < len(x.players):
            text += " · " + expedition_brief(x.players[seat], x.threshold)
        lines.append(text)
    lines.append(progress_line(view, t))
    if x is not None:
        if x.rain:
            lines.append(t.gettext("🌧 Rainy season: every die move on land is one step shorter."))
        if x.known:
            known = ", ".join(f"{place(p, t)} {token_name(kind_of(c), t)}" for p, c in x.known)
            lines.append(t.gettext("👁 Known face down: {tokens}").format(tokens=known))
    if view.phase == "over":
        return "\n".join(lines)  # the events and the final standings tell the rest
    status = star_status(view, ctx)
    if status:
        lines.append(status)
    return "\n".join(lines)


def _title_line(view: View, t: Translator) -> str:
    game = f"{title(t)} ({' · '.join(option_parts(view.options, t))})"
    if view.phase in ("setup", "character"):
        return t.gettext("{game} – getting ready").format(game=game)
    return game  # the round is on the progress line


def token_total(view: View) -> int:
    """How many treasure tokens the game has: 30 per layer (§2), two layers in Retkikunnat unless
    it is the quick game."""
    o = view.options
    return 60 if o.expansion and not o.quick_game else 30


def progress_line(view: View, t: Translator) -> str:
    """How far the game has come, in one short line: the round, the tokens still face down, and
    whether the Star has been found."""
    down = len(view.face_down)
    tokens = t.gettext("tokens face down {down}/{total}").format(down=down, total=token_total(view))
    star = t.gettext("⭐ the Star found") if view.star_found else t.gettext("the Star still hidden")
    if view.phase in ("setup", "character"):
        return t.gettext("🧭 Before the first round · {tokens} · {star}").format(tokens=tokens, star=star)
    return t.gettext("🧭 Round {round} · {tokens} · {star}").format(
        round=view.round, tokens=tokens, star=star
    )


def star_status(view: View, ctx: RenderContext) -> str:
    """Who carries the Star (and where to), the Capetown bonus and the last roll in one line."""
    t = ctx.t
    parts = []
    if view.star_holder is not None:
        parts.append(
            t.gettext("⭐ The Star is with {name}: next stop Tangier or Cairo!").format(
                name=ctx.name(view.star_holder)
            )
        )
    bonus = view.options.capetown_bonus
    if view.capetown_claimed is None and bonus:
        parts.append(t.gettext("💰 Capetown bonus {amount}").format(amount=money(bonus, t)))
    if view.last_roll is not None and view.last_roller is not None:
        parts.append(
            t.gettext("🎲 {name} rolled {die} last.").format(
                name=ctx.name(view.last_roller), die=view.last_roll
            )
        )
    return " · ".join(parts)


def expedition_brief(p: PlayerX, threshold: int) -> str:
    """A player's expedition in a few signs: symbols towards the threshold (⚔️ action, 🛢 resources,
    🥾 travel), ✅ when complete, and the number of hand cards (never the cards)."""
    if p.complete:
        exp = f"🎒✅ {threshold}/{threshold}/{threshold}"
    else:
        a, r, tr = (*p.symbols, 0, 0, 0)[:3]
        exp = f"🎒 ⚔️{a} 🛢{r} 🥾{tr} /{threshold}"
    return f"{exp} · 🃏{p.hand_count}"


def detail(view: View, ctx: RenderContext) -> str:
    """Everything public, asked for with "näytä tilanne": the table with each player's character
    and expedition cards (✓ used this round, ⏸ held), the decks, the known tokens."""
    t = ctx.t
    lines = [_title_line(view, t)]
    line = turn_line(view, ctx)
    if line:
        lines.append(line)
    x = expansion_of(view)
    expeditions = expedition_lines(x, ctx) if x is not None else []
    for seat, pawn in enumerate(view.pawns):
        lines.append(pawn_line(seat, pawn, ctx))
        if seat < len(expeditions):
            lines.append(expeditions[seat])
    lines.append(progress_line(view, t))
    flipped = flipped_line(view, t)
    if flipped:
        lines.append(flipped)
    if x is not None:
        lines.extend(expansion_table_lines(x, ctx))
    status = star_status(view, ctx)
    if status and view.phase != "over":
        lines.append(status)
    return "\n".join(lines)


def pawn_line(seat: int, pawn: PawnView, ctx: RenderContext) -> str:
    t = ctx.t
    marks = "".join(TOKEN_MARKERS.get(kind_of(item), "") for item in pawn.items)
    text = t.gettext("{marker} {name}: {where} · {cash}").format(
        marker=SEAT_MARKERS[seat % len(SEAT_MARKERS)],
        name=ctx.name(seat),
        where=where(pawn, t),
        cash=money(pawn.cash, t),
    )
    if pawn.lost_turns:
        text += " · " + t.ngettext("skips {n} turn", "skips {n} turns", pawn.lost_turns).format(
            n=pawn.lost_turns
        )
    return f"{text} {marks}".rstrip()


def where(pawn: PawnView, t: Translator) -> str:
    """A pawn's situation in a few words, for the table."""
    node = pawn.node
    voyage = pawn.voyage
    if node is None:
        return t.gettext("choosing a start")
    if pawn.captured and node in HAZARDS:
        return captive_text(HAZARDS[node], t)
    if voyage is not None:
        leg = LEGS.get((voyage.origin, voyage.dest))
        left = leg.steps - voyage.at if leg else 0
        text = t.ngettext("at sea, {n} step {to}", "at sea, {n} steps {to}", left).format(
            n=left, to=place(voyage.dest, t, TO)
        )
        return text + ("" if voyage.paid else " " + t.gettext("(free passage)"))
    return node_text(node, t)


def flipped_line(view: View, t: Translator) -> str | None:
    """What the flipped tokens were, valuable first (for the detail); None before any flip."""
    flipped: dict[str, int] = {}
    for _place, content in view.revealed:
        flipped[kind_of(content)] = flipped.get(kind_of(content), 0) + 1
    order = [k for k in TOKEN_ORDER if k in flipped] + sorted(k for k in flipped if k not in TOKEN_ORDER)
    if not order:
        return None
    counts = ", ".join(f"{token_word(k, t)} {flipped[k]}" for k in order)
    return t.gettext("🪙 Flipped: {counts}").format(counts=counts)


def turn_line(view: View, ctx: RenderContext) -> str | None:
    """What the active seat is doing now, by phase; a phase this module does not know gets the
    plain "Turn: name"."""
    t = ctx.t
    seat = view.turn
    phase = view.phase
    if phase == "over" or seat is None:
        return None
    x = expansion_of(view)
    if x is not None:
        pending = prompt_line(view, x, ctx)
        if pending:
            return pending
        line = expansion_turn_line(view, ctx)
        if line:
            return line
    name = ctx.name(seat)
    me = view.pawns[seat]
    move = view.move
    match phase:
        case "setup":
            return t.gettext("▶ {name}, choose your start: {a} or {b}.").format(
                name=name, a=place("tangier", t), b=place("cairo", t)
            )
        case "declare" if me.voyage is not None:
            return t.gettext("▶ Turn: {name} – sail on or stay.").format(name=name)
        case "declare":
            return t.gettext("▶ Turn: {name} – roll the die or choose another move.").format(name=name)
        case "release":
            faces = t.format_list([str(f) for f in view.options.hazard_release_faces], style="or")
            return t.gettext("▶ Turn: {name} – captured; a roll of {faces} sets you free.").format(
                name=name, faces=faces
            )
        case "move" if move is not None:
            return t.ngettext(
                "▶ Turn: {name} rolled {roll} – choose where to go ({n} step left).",
                "▶ Turn: {name} rolled {roll} – choose where to go ({n} steps left).",
                move.steps,
            ).format(name=name, roll=move.roll, n=move.steps)
        case "after_move" if me.node is not None:
            return t.gettext("▶ Turn: {name} – flip the token {here} for {price}, or end the turn.").format(
                name=name, here=place(me.node, t, AT), price=money(FLIP_PRICE, t)
            )
    return t.gettext("▶ Turn: {name}").format(name=name)


# --------------------------------------------------------------------------------------------------
# Retkikunnat on the table: expeditions, decks, known tokens, prompts, dangers and duels
# --------------------------------------------------------------------------------------------------


def expedition_lines(x: XView, ctx: RenderContext) -> list[str]:
    """Under each pawn line: the character, the expedition cards (✓ used this round, ⏸ held),
    whether the expedition is complete, and the hand COUNT (never the cards)."""
    t = ctx.t
    out: list[str] = []
    for seat, p in enumerate(x.players):
        who = card_name(p.character, t) if p.character else t.gettext("no character yet")
        shown = []
        for inst in p.cards:
            mark = " ✓" if inst in p.used else (" ⏸" if inst in p.held else "")
            shown.append(card_name(inst, t) + mark)
        parts = [f"🎭 {who}"]
        parts.append(
            "🎒 "
            + (", ".join(shown) if shown else t.gettext("no cards"))
            + f" ({len(p.cards)}/{p.card_limit})"
        )
        parts.append(
            t.gettext("✅ expedition complete")
            if p.complete
            else t.gettext("expedition incomplete") + " " + expedition_brief(p, x.threshold).split(" · ")[0]
        )
        parts.append(t.ngettext("🃏 {n} hand card", "🃏 {n} hand cards", p.hand_count).format(n=p.hand_count))
        out.append(f"   {ctx.name(seat)}: " + " · ".join(parts))
    return out


def expansion_table_lines(x: XView, ctx: RenderContext) -> list[str]:
    t = ctx.t
    lines: list[str] = []
    if x.rain:
        lines.append(t.gettext("🌧 Rainy season: every die move on land is one step shorter."))
    decks = ", ".join(f"{t.gettext(DECK_NAMES.get(d, d))} {n}" for d, n in x.decks)
    lines.append(t.gettext("🂠 Decks: {decks}").format(decks=decks))
    for place_id, content in x.known:
        lines.append(
            t.gettext("👁 Known token {here}: {token}").format(
                here=place(place_id, t, AT), token=token_name(kind_of(content), t)
            )
        )
    return lines


def prompt_line(view: View, x: XView, ctx: RenderContext) -> str | None:
    """Who must answer what now, from the public prompt; reaction windows never say who may answer
    (that would tell who holds which hand card)."""
    t = ctx.t
    pr = x.prompt
    if pr is None:
        return None
    names = names_list(pr.seats, ctx)
    card = card_name(pr.card, t) if pr.card else ""
    owner = ctx.name(pr.owner) if isinstance(pr.owner, int) else ""
    secs = int(view.options.response_window_seconds)
    match pr.kind:
        case "window" if pr.what == "sabotage":
            return t.gettext(
                "⏳ {name} uses {card}. Anyone may answer with Sabotage in private ({secs} s)."
            ).format(name=owner, card=card, secs=secs)
        case "window" if pr.what == "gotcha":
            return t.gettext(
                "⏳ {name} played {card}. Anyone may answer with Gotcha! in private ({secs} s)."
            ).format(name=owner, card=card, secs=secs)
        case "window":
            loser = ctx.name(pr.loser) if isinstance(pr.loser, int) else ""
            return t.gettext(
                "⏳ {winner} won the duel against {loser}. Anyone may rescue {loser} with Ulterior motive "
                "or Favour in private ({secs} s)."
            ).format(winner=owner, loser=loser, secs=secs)
        case "reveal":
            return t.gettext(
                "⏳ The token is shown. {name} may still swap it with Surprise! in private ({secs} s)."
            ).format(name=owner, secs=secs)
        case "danger":
            return danger_line(x, ctx)
        case "duel":
            return duel_line(x, ctx)
        case "choose":
            opts = ", ".join(option_text(o, ctx) for o in pr.options[:12])
            what = card_name(pr.what, t) if pr.what else card
            if opts:
                return t.gettext("▶ {name} chooses for {what}: {options}.").format(
                    name=names, what=what, options=opts
                )
            return t.gettext("▶ {name} chooses for {what}.").format(name=names, what=what)
        case "offer" if x.offer is not None:
            o = x.offer
            other = ctx.name(o.to)
            asked = t.gettext("{other}: accept or decline.").format(other=other)
            return offer_text(ctx.name(o.seat), other, o.give, o.get, t) + " " + asked
        case "market_day":
            return t.gettext("🛒 Market day: {name} may buy the top expedition card, or decline.").format(
                name=names
            )
        case "exchange":
            return t.gettext("🔁 {name} may take a danger card instead, or decline.").format(name=names)
        case "lost_turn":
            return t.gettext("🥫 {name} may use Tinned food to keep the turn, or pass.").format(name=names)
        case "hand_discard":  # the player chooses which (issue #27: "yksi poistetaan" said otherwise)
            return t.gettext("🃏 {name} has too many hand cards and discards one.").format(name=names)
        case "limit_discard":
            return t.gettext("🎒 {name} has too many expedition cards and discards one.").format(name=names)
    return t.gettext("▶ Waiting for {name}.").format(name=names)


def danger_line(x: XView, ctx: RenderContext) -> str:
    t = ctx.t
    d = x.danger
    if d is None:
        return t.gettext("⚠️ A danger situation.")
    head = t.gettext("⚠️ {name} faces {card}: needs {needs}.").format(
        name=ctx.name(d.seat), card=card_name(d.card, t), needs=requires_text(d.requires, t)
    )
    match d.stage:
        case "drawn":
            return head + " " + t.gettext("Roll the danger dice (or bribe).")
        case "rolled":
            return (
                head
                + " "
                + t.gettext("Dice: {dice}. Reroll with a card, or keep them.").format(dice=dice_text(d.dice))
            )
        case "failed":
            return (
                head
                + " "
                + t.gettext("Dice: {dice}. Failed: use a card that saves you, or take the penalty.").format(
                    dice=dice_text(d.dice)
                )
            )
    return head


def duel_line(x: XView, ctx: RenderContext) -> str:
    t = ctx.t
    d = x.duel
    if d is None:
        return t.gettext("⚔️ A duel.")
    head = t.gettext("⚔️ {attacker} challenges {defender} for {target}.").format(
        attacker=ctx.name(d.attacker), defender=ctx.name(d.defender), target=target_text(d.target, t)
    )
    if d.defender_dice:
        head += " " + t.gettext("Defender: {dice}.").format(dice=dice_text(d.defender_dice))
    if d.face is not None and d.k is not None:
        head += " " + t.gettext("To beat: {k}× {face}.").format(k=d.k, face=face_name(d.face, t))
    if d.attacker_dice:
        head += " " + t.gettext("Attacker: {dice}.").format(dice=dice_text(d.attacker_dice))
    match d.stage:
        case "defender_roll":
            return head + " " + t.gettext("{name} rolls first.").format(name=ctx.name(d.defender))
        case "defender_reroll":
            return (
                head
                + " "
                + t.gettext("{name} may reroll or keep the dice.").format(name=ctx.name(d.defender))
            )
        case "attacker_roll":
            return head + " " + t.gettext("{name} rolls now.").format(name=ctx.name(d.attacker))
        case "attacker_reroll":
            return (
                head
                + " "
                + t.gettext("{name} may reroll or keep the dice.").format(name=ctx.name(d.attacker))
            )
    return head


def expansion_turn_line(view: View, ctx: RenderContext) -> str | None:
    """The turn line for the expansion's own phases (the base phases keep theirs)."""
    t = ctx.t
    name = ctx.name(view.turn) if isinstance(view.turn, int) else ""
    match view.phase:
        case "character":
            return t.gettext("▶ {name}, choose your character.").format(name=name)
        case "phase2":
            return t.gettext("▶ Turn: {name} – use or sell expedition cards, then go on.").format(name=name)
        case "phase3" if isinstance(view.turn, int):
            return phase3_line(view, view.turn, ctx)
    return None


def phase3_line(view: View, seat: int, ctx: RenderContext) -> str:
    """Phase 3's turn line, naming only what the seat may do here: flip the token under its pawn,
    duel or trade with a pawn on the same node, and always end the turn."""
    t = ctx.t
    choices = [
        text
        for allowed, text in zip(
            phase3_choices(view, seat),
            (
                t.pgettext("phase 3", "flip the token"),
                t.pgettext("phase 3", "challenge someone to a duel"),
                t.pgettext("phase 3", "trade"),
            ),
            strict=True,
        )
        if allowed
    ]
    name = ctx.name(seat)
    if not choices:
        return t.gettext("▶ Turn: {name} – nothing to flip or challenge here: end the turn.").format(
            name=name
        )
    return t.gettext("▶ Turn: {name} – {choices}.").format(
        name=name, choices=t.format_list([*choices, t.pgettext("phase 3", "end the turn")], style="or")
    )


def phase3_choices(view: View, seat: int) -> tuple[bool, bool, bool]:
    """(flip, duel, trade): what Phase 3 allows the seat, from the public view as the engine decides
    it (§5.2, §5.12, §5.13). The view does not count the turn's declined offers, so after two of them
    trading still reads as open while the buttons (the legal actions) no longer offer it."""
    x = expansion_of(view)
    if x is None or not 0 <= seat < len(view.pawns):
        return False, False, False
    me = view.pawns[seat]
    here = [s for s, p in enumerate(view.pawns) if s != seat and p.node is not None and p.node == me.node]
    flip = x.phase3 is None and x.flip_price is not None
    duel = x.phase3 is None and any(_duel_target(view, x, s) for s in here)
    trade = x.phase3 in (None, "trade") and any(_trade_possible(view, x, seat, s) for s in here)
    return flip, duel, trade


def _duel_target(view: View, x: XView, other: int) -> bool:
    """Whether ``other`` has something a duel may be fought for: a winning item, a card that may be
    stolen (not a skill), or the smallest sum a duel asks."""
    pawn = view.pawns[other]
    if pawn.items or pawn.cash >= min(DUEL_MONEY):
        return True
    cards_ = x.players[other].cards if other < len(x.players) else ()
    return any(stealable(cid(c)) and card_type(cid(c)) != "skill" for c in cards_)


def _trade_possible(view: View, x: XView, seat: int, other: int) -> bool:
    """Whether some offer can be made: a tradeable card for money or for a card (§5.13)."""
    mine = any(tradeable(cid(c)) for c in x.players[seat].cards) if seat < len(x.players) else False
    theirs = any(tradeable(cid(c)) for c in x.players[other].cards) if other < len(x.players) else False
    cheapest = min(OFFER_MONEY)
    return (
        (mine and theirs)
        or (mine and view.pawns[other].cash >= cheapest)
        or (theirs and view.pawns[seat].cash >= cheapest)
    )


# --------------------------------------------------------------------------------------------------
# The private panel
# --------------------------------------------------------------------------------------------------


def private(view: View, ctx: RenderContext) -> str | None:
    """The seat's own panel. Nothing is private in the base game; the panel repeats the seat's own
    situation so the private chat makes sense without the group's table."""
    seat = view.seat
    if seat is None or not 0 <= seat < len(view.pawns):
        return None
    lines = [pawn_line(seat, view.pawns[seat], ctx)]
    x = expansion_of(view)
    if x is not None:
        lines.extend(expansion_private_lines(view, x, ctx))
        pr = x.prompt
        if pr is not None and seat in pr.seats:
            lines.append(prompt_line(view, x, ctx) or "")
            if pr.card and pr.kind == "window" and cid(pr.card) in cards.EXPEDITION_CARDS:
                lines.append(f"{card_name(pr.card, ctx.t)}: {card_text(pr.card, ctx.t)}")
            if pr.kind in ("window", "reveal") and not _answers(x, pr.kind, pr.what):
                lines.append(
                    ctx.t.gettext(
                        "You hold no card that answers this. Nobody can tell: everyone with hand cards is "
                        "asked alike. Pass, or let the time run out."
                    )
                )
            return "\n".join(lines)
    if view.turn == seat:
        line = turn_line(view, ctx)
        if line:
            lines.append(line)
    return "\n".join(lines)


def _answers(x: XView, kind: str, what: str | None) -> bool:
    """The seat's own hand holds a card that answers this window (its own panel only)."""
    answers = {"surprise"} if kind == "reveal" else WINDOW_CARDS.get(what or "", frozenset())
    return any(cid(c) in answers for c in x.hand)


def expansion_private_lines(view: View, x: XView, ctx: RenderContext) -> list[str]:
    """The seat's own secrets: the hand cards and the tokens peeked at."""
    t = ctx.t
    out: list[str] = []
    me = x.players[view.seat] if view.seat is not None and view.seat < len(x.players) else None
    if me is not None and me.character:
        out.append(
            t.gettext("🎭 You are the {character}: {text}").format(
                character=card_name(me.character, t), text=card_text(me.character, t)
            )
        )
    if x.hand:
        out.append(
            t.gettext("🃏 Your hand: {cards}").format(cards=", ".join(card_name(c, t) for c in x.hand))
        )
    else:
        out.append(t.gettext("🃏 Your hand is empty."))
    if x.ask not in (None, "all"):
        out.append(window_setting_line(x.ask, t))
    for place_id, content in x.peeks:
        out.append(
            t.gettext("👁 You peeked {here}: {token}").format(
                here=place(place_id, t, AT), token=token_name(kind_of(content), t)
            )
        )
    return out
