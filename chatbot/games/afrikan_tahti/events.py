"""Afrikan Tähti events as lines for one recipient (the caller passes only the events that
recipient may see): the base game's, then the Retkikunnat expansion's.

An event this module does not know, or one whose parameters changed shape, becomes a plain line
("Matti: duel won") instead of silence or a crash that would lose the whole message. Events that
the table's own lines already tell ("turn", a reaction window) give no line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import Translator
from chatbot.games.afrikan_tahti.names import (
    AT,
    DECK_NAMES,
    FROM,
    TO,
    card_name,
    card_text,
    cid,
    dice_text,
    dot_text,
    face_name,
    items_text,
    kind_of,
    money,
    offer_text,
    place,
    requires_text,
    target_text,
    token_name,
    token_word,
)
from engines.afrikan_tahti.board import LEGS, PLACE_SET
from engines.afrikan_tahti.model import seat_of
from engines.afrikan_tahti.retkikunnat.content import DNG
from engines.contract import Event, ev


def lines(events: Sequence[Event], ctx: RenderContext) -> list[str]:
    """One line per event that says something to this recipient; a seat's cards gained in a row
    (the quick game's deal) make one line."""
    out: list[str] = []
    events = _with_danger_dice(_merge_gains(events))
    for e in events:
        try:
            line = event_line(e, ctx)
        except (KeyError, TypeError, ValueError):
            # an event whose parameters changed shape (the expansion reuses codes): a plain
            # line keeps the table readable where a crash would lose the whole message
            line = generic_line(e, ctx)
        if line:
            out.append(line)
    return out


#: events that are news for the whole table: each is also a message of its own that stays
HEADLINES = frozenset({"duel_result", "duel_rescued", "star_found", "expedition_complete", "won"})


def headlines(events: Sequence[Event], ctx: RenderContext) -> list[str]:
    """The lines of the events that matter (a duel's result, the Star found, an expedition complete,
    the winner), for messages of their own; the table's event lines still carry them too."""
    return lines([e for e in events if e.code in HEADLINES and e.public], ctx)


def window_setting_line(mode: str, t: Translator) -> str:
    """The seat's own reaction-window setting (private)."""
    if mode == "never":
        return t.gettext("🔕 I won't ask you in reaction windows; they pass for you at once.")
    if mode == "all":
        return t.gettext("🔔 I'll ask you in every reaction window again.")
    return t.gettext("🔔 I'll ask you only in windows that {card} answers.").format(card=card_name(mode, t))


def _merge_gains(events: Sequence[Event]) -> list[Event]:
    out: list[Event] = []
    for e in events:
        last = out[-1] if out else None
        if (
            e.code == "card_gained"
            and last is not None
            and last.code in ("card_gained", "cards_gained")
            and last.get("seat") == e.get("seat")
            and last.to == e.to
        ):
            cards_ = (*(last.get("cards") or (last.get("card"),)), e.get("card"))
            out[-1] = ev("cards_gained", last.to, seat=e.get("seat"), cards=cards_)
        else:
            out.append(e)
    return out


def _with_danger_dice(events: Sequence[Event]) -> list[Event]:
    """A danger's result carries the dice it was decided by (``dice``), when the roll or the last
    reroll is among these events, so that its line can say by how much it went either way."""
    out: list[Event] = []
    dice: dict[int, tuple[str, ...]] = {}
    for e in events:
        seat = e.get("seat")
        if e.code in ("danger_card", "duel"):
            dice.clear()
        elif e.code == "danger_dice" and isinstance(seat, int):
            dice[seat] = tuple(e.get("dice", ()))
        elif e.code == "rerolled" and isinstance(seat, int) and e.get("result"):
            dice[seat] = tuple(e.get("result", ()))
        elif e.code in ("danger_passed", "danger_failed") and isinstance(seat, int) and seat in dice:
            e = ev(e.code, e.to, **e.p, dice=dice[seat])
        out.append(e)
    return out


def _requires(card: str) -> tuple[tuple[str, int], ...]:
    """What a danger card asks of the dice (face, count), from the card data."""
    return tuple(sorted(DNG.get(cid(card), {}).get("requires", {}).items()))


def generic_line(e: Event, ctx: RenderContext) -> str:
    seat = e.get("seat")
    label = e.code.replace("_", " ")
    return f"{ctx.name(seat)}: {label}" if isinstance(seat, int) else f"({label})"


def event_line(e: Event, ctx: RenderContext) -> str | None:
    """The line of one event: the expansion's events first (it reuses some base codes with other
    parameters), then the base game's, else the plain line."""
    line = expansion_event(e, ctx)
    if line is not False:
        return line if isinstance(line, str) else None
    return base_event(e, ctx)


# --------------------------------------------------------------------------------------------------
# The base game
# --------------------------------------------------------------------------------------------------


def base_event(e: Event, ctx: RenderContext) -> str | None:
    t = ctx.t
    p = e.p
    name = ctx.name(p["seat"]) if isinstance(p.get("seat"), int) else ""
    match e.code:
        case "tokens_placed":
            n = len(p.get("tokens", ())) + len(p.get("lower", ()))
            return t.ngettext(
                "{n} treasure token was placed face down.", "{n} treasure tokens were placed face down.", n
            ).format(n=n)
        case "start_assigned" | "start_chosen":
            return t.gettext("{name} starts {place}.").format(name=name, place=place(p["place"], t, FROM))
        case "rolloff":
            rolls = ", ".join(f"{ctx.name(s)} {r}" for s, r in zip(p["seats"], p["rolls"]))
            return t.gettext("🎲 Roll for the first turn: {rolls}.").format(rolls=rolls)
        case "first_player":
            return t.gettext("{name} gets the first turn.").format(name=name)
        case "turn":
            return None  # the table's turn line says it
        case "turn_lost":
            pending = int(p.get("pending", 0))
            if pending:
                return t.ngettext(
                    "{name} misses this turn; {n} more turn to miss.",
                    "{name} misses this turn; {n} more turns to miss.",
                    pending,
                ).format(name=name, n=pending)
            return t.gettext("{name} misses this turn.").format(name=name)
        case "rolled":
            if p.get("purpose") == "release":
                return t.gettext("🎲 {name} rolled {die} to get free.").format(name=name, die=p["die"])
            if p.get("purpose") == "flip":
                return t.gettext("🎲 {name} rolled {die} for the token.").format(name=name, die=p["die"])
            return t.gettext("🎲 {name} rolled {die}.").format(name=name, die=p["die"])
        case "moved":
            return _moved(name, p, t)
        case "boarded":
            if p.get("free"):
                return t.gettext("⛵ {name} sails for free {to}.").format(
                    name=name, to=place(p["dest"], t, TO)
                )
            if not int(p.get("fare", 0)):
                return t.gettext("⛵ {name} boards a ship {to}; the ticket costs nothing.").format(
                    name=name, to=place(p["dest"], t, TO)
                )
            return t.gettext("⛵ {name} bought a ticket {to} ({fare}).").format(
                name=name, to=place(p["dest"], t, TO), fare=money(p["fare"], t)
            )
        case "sailed":
            steps = int(p.get("steps", 0))
            if p.get("arrived"):
                return t.ngettext(
                    "⛵ {name} sailed {n} step and arrived {to}.",
                    "⛵ {name} sailed {n} steps and arrived {to}.",
                    steps,
                ).format(name=name, n=steps, to=place(p["dest"], t, TO))
            leg = next(
                (leg for leg in LEGS.values() if leg.id == p.get("leg") and leg.dest == p.get("dest")), None
            )
            left = leg.steps - int(p.get("at", 0)) if leg else 0
            return t.ngettext(
                "⛵ {name} is sailing {to}: {left} step to go.",
                "⛵ {name} is sailing {to}: {left} steps to go.",
                left,
            ).format(name=name, left=left, to=place(p["dest"], t, TO))
        case "flew":
            return t.gettext("✈️ {name} flew {start} {to} ({fare}).").format(
                name=name,
                start=place(p["start"], t, FROM),
                to=place(p["dest"], t, TO),
                fare=money(p["fare"], t),
            )
        case "stayed":
            return t.gettext("{name} stays put.").format(name=name)
        case "capetown_bonus":
            return t.gettext("💰 {name} reached Capetown first and gets {amount}!").format(
                name=name, amount=money(p["amount"], t)
            )
        case "captured":
            if p.get("hazard") == "pirates":
                return t.gettext("⛓ {name} was captured by the pirates!").format(name=name)
            return t.gettext("⛓ {name} was captured by the bedouins!").format(name=name)
        case "released":
            return t.gettext("🔓 {name} is free again!").format(name=name)
        case "still_captured":
            return t.gettext("{name} is still held captive.").format(name=name)
        case "flipped":
            return t.gettext("🪙 {name} flipped the token {here}: {token}.").format(
                name=name, here=place(p["place"], t, AT), token=token_name(p["kind"], t)
            )
        case "flip_failed":
            return t.gettext("{name} did not get the token flipped.").format(name=name)
        case "star_found":
            return t.gettext("⭐ {name} found the Star of Africa! Next stop Tangier or Cairo.").format(
                name=name
            )
        case "gem":
            # the "flipped" line just named the gem; this one says what it pays
            if p.get("doubled"):
                return t.gettext("💰 {name} gets {amount}, double on the Gold Coast!").format(
                    name=name, amount=money(p["amount"], t)
                )
            return t.gettext("💰 {name} gets {amount}.").format(name=name, amount=money(p["amount"], t))
        case "robbed":
            if not p.get("lost"):
                return t.gettext("{name} had no money for the robber to take.").format(name=name)
            return t.gettext("{name} loses all their money ({amount}).").format(
                name=name, amount=money(p["lost"], t)
            )
        case "horseshoe_kept":
            return t.gettext("🐎 A horseshoe after the Star: {name} can win with it too!").format(name=name)
        case "horseshoe_worthless":
            return t.gettext("🐎 A horseshoe, but worthless while the Star is still hidden.")
        case "blank":
            return None  # the "flipped" line said it; at the Slave Coast "turns_lost" follows
        case "turns_lost":
            turns = int(p.get("turns", 0))
            if p.get("reason") == "slave_coast":
                return t.ngettext(
                    "⛓ The slave traders caught {name}: {n} turn lost.",
                    "⛓ The slave traders caught {name}: {n} turns lost.",
                    turns,
                ).format(name=name, n=turns)
            return t.ngettext("{name} loses {n} turn.", "{name} loses {n} turns.", turns).format(
                name=name, n=turns
            )
        case "won":
            goal = place(p["goal"], t, TO)
            if p.get("item") == "horseshoe":
                return t.gettext("🏆 {name} brought a horseshoe {goal} and wins!").format(
                    name=name, goal=goal
                )
            return t.gettext("🏆 {name} brought the Star of Africa {goal} and wins!").format(
                name=name, goal=goal
            )
        case "game_over":
            if p.get("reason") == "round_limit":
                return t.gettext("The round limit was reached and the game ends.")
            return None  # "won" said it
    # An event this module does not know (the expansion adds some): a plain line, not silence.
    return generic_line(e, ctx)


def _moved(name: str, p: dict[str, Any], t: Translator) -> str:
    steps = int(p.get("steps", 0))
    dest = p["dest"]
    if p.get("by") == "card":  # Shortcut, Good guide, Black magic: moved, not walked step by step
        where = place(dest, t, TO) if dest in PLACE_SET else dot_text(dest, t)
        return t.gettext("{name} moved {to} ({card}).").format(
            name=name, to=where, card=card_name(str(p.get("how", "")), t)
        )
    if dest in PLACE_SET:
        return t.ngettext("{name} walked {n} step {to}.", "{name} walked {n} steps {to}.", steps).format(
            name=name, n=steps, to=place(dest, t, TO)
        )
    return t.ngettext(
        "{name} walked {n} step and is now {where}.", "{name} walked {n} steps and is now {where}.", steps
    ).format(name=name, n=steps, where=dot_text(dest, t))


# --------------------------------------------------------------------------------------------------
# Retkikunnat
# --------------------------------------------------------------------------------------------------


def expansion_event(e: Event, ctx: RenderContext) -> str | bool | None:
    """A line for an expansion event; ``False`` when the code is not an expansion event."""
    t = ctx.t
    p = e.p
    name = ctx.name(p["seat"]) if isinstance(p.get("seat"), int) else ""
    other = ctx.name(p["other"]) if isinstance(p.get("other"), int) else ""
    card = card_name(p["card"], t) if isinstance(p.get("card"), str) else ""
    match e.code:
        case "character":
            return t.gettext("🎭 {name} is the {character}; starting cards: {cards}.").format(
                name=name,
                character=card_name(p["character"], t),
                cards=t.format_list([card_name(c, t) for c in p.get("cards", ())]) or t.gettext("nothing"),
            )
        case "seaplane":
            return t.gettext("🛩 {name} flew the seaplane {to} ({fare}).").format(
                name=name, to=place(p["dest"], t, TO), fare=money(int(p.get("paid", 0)), t)
            )
        case "die_adjusted":
            return t.gettext("🗺 {name} changed the die by {delta:+d}: {n} steps.").format(
                name=name, delta=int(p["delta"]), n=p["steps"]
            )
        case "not_captured":
            return t.gettext("{name} slips past the captors.").format(name=name)
        case "event_card":
            return t.gettext("📜 {name} drew the event card {card}: {text}").format(
                name=name, card=card, text=card_text(p["card"], t)
            )
        case "rain_started":
            return t.gettext("🌧 The rainy season begins: die moves on land are one step shorter.")
        case "rain_ended":
            return t.gettext("☀️ The rainy season is over.")
        case "reshuffled":
            return t.gettext("🔀 The {deck} deck was reshuffled ({n} cards).").format(
                deck=t.gettext(DECK_NAMES.get(p["deck"], p["deck"])), n=p.get("cards", 0)
            )
        case "deck_empty":
            return t.gettext("🂠 The {deck} deck is empty.").format(
                deck=t.gettext(DECK_NAMES.get(p["deck"], p["deck"]))
            )
        case "card_gained":
            return t.gettext("🎒 {name} gets {card}.").format(name=name, card=card)
        case "cards_gained":
            return t.gettext("🎒 {name} gets {cards}.").format(
                name=name, cards=t.format_list([card_name(str(c), t) for c in p.get("cards", ())])
            )
        case "card_lost":
            return t.gettext("🎒 {name} loses {card}.").format(name=name, card=card)
        case "card_discarded":
            if p.get("reason") == "used":
                return t.gettext("{name} used up {card}.").format(name=name, card=card)
            if int(p.get("amount", 0)):
                return t.gettext("🗑 {name} discarded {card} and got {amount}.").format(
                    name=name, card=card, amount=money(int(p["amount"]), t)
                )
            return t.gettext("🗑 {name} discarded {card}.").format(name=name, card=card)
        case "sold":
            return t.gettext("💰 {name} sold {card} for {amount}.").format(
                name=name, card=card, amount=money(int(p.get("amount", 0)), t)
            )
        case "cards_drawn":
            return t.gettext("🎒 {name} draws {cards}.").format(
                name=name, cards=t.format_list([card_name(c, t) for c in p.get("cards", ())])
            )
        case "income":
            return t.gettext("💰 {name} gets {amount}.").format(name=name, amount=money(int(p["amount"]), t))
        case "paid":
            if isinstance(p.get("payee"), int):
                return t.gettext("💸 {name} pays {amount} to {other}.").format(
                    name=name, amount=money(int(p["amount"]), t), other=ctx.name(p["payee"])
                )
            if not int(p["amount"]):
                return None  # nothing paid (no money left): the penalty's own line says the rest
            return t.gettext("💸 {name} pays {amount}.").format(name=name, amount=money(int(p["amount"]), t))
        case "robbed" if isinstance(p.get("taker"), int):
            return t.gettext("🦹 {name} loses {amount} to {other}.").format(
                name=name, amount=money(int(p.get("lost", 0)), t), other=ctx.name(p["taker"])
            )
        case "penalty_void":
            return t.gettext("{name} had nothing to lose and gets off free.").format(name=name)
        case "penalty_cancelled":
            return t.gettext("🩹 {name} avoided the penalty with {card}.").format(name=name, card=card)
        case "exchanged":
            return t.gettext("🔁 {name} takes a danger card instead.").format(name=name)
        case "pawns_swapped":
            return t.gettext("🔄 {name} and {other} swapped places.").format(name=name, other=other)
        case "stacks_swapped":
            a, b = p["places"]
            return t.gettext("🔄 The tokens {a} and {b} swapped places.").format(
                a=place(a, t, AT), b=place(b, t, AT)
            )
        case "held":
            return t.gettext("⏸ {name} holds {card} for later.").format(name=name, card=card)
        case "unheld":
            return t.gettext("▶ {name} lets {card} work again.").format(name=name, card=card)
        case "lost_turn_prompt" | "window":
            return None  # the table's prompt line says it
        case "lost_turn_cancelled":
            return t.gettext("🥫 {name} keeps the turn.").format(name=name)
        case "search_failed":
            return t.gettext("{name} found no card of that type.").format(name=name)
        case "declined":
            return (
                t.gettext("{name} declined {card}.").format(name=name, card=card)
                if card
                else t.gettext("{name} declined.").format(name=name)
            )
        case "card_used":
            if p.get("card") == "doctor":
                return t.gettext("🩺 {name} uses the Doctor's reroll.").format(name=name)
            return t.gettext("✨ {name} uses {card}.").format(name=name, card=card)
        case "use_cancelled":
            return t.gettext("🚫 The use of {card} was cancelled.").format(card=card)
        case "expedition_complete":
            return t.gettext("🎒✅ Expedition complete: {name} may now flip discovery tokens too.").format(
                name=name
            )
        case "window_muted":
            return t.gettext(
                "🔕 You let two reaction windows run out, so I won't ask you in them any more (a "
                "window then passes for you at once). Write “ask me” to be asked again."
            )
        case "window_setting":
            return window_setting_line(str(p.get("mode")), t)
        case "window_closed":
            if isinstance(p.get("answered_by"), int):
                return None  # the answer's own event says it
            return t.gettext("Nobody answered.")
        case "hand_card_played":
            target = p.get("target")
            text = t.gettext("🃏 {name} plays {card}.").format(name=name, card=card)
            if isinstance(target, str) and ":" in target:
                s, _, c = target.partition(":")
                seat = seat_of(s)
                if seat is not None:
                    text = t.gettext("🃏 {name} plays {card} on {other}'s {target}.").format(
                        name=name, card=card, other=ctx.name(seat), target=card_name(c, t)
                    )
            elif isinstance(target, str) and target in PLACE_SET:
                text = t.gettext("🃏 {name} plays {card}: {place}.").format(
                    name=name, card=card, place=place(target, t)
                )
            return text
        case "hand_card_cancelled":
            return t.gettext("🚫 {card} was cancelled by {name}.").format(card=card, name=ctx.name(p["by"]))
        case "hand_card_discarded":
            return t.gettext("🗑 {name} discards the hand card {card}.").format(name=name, card=card)
        case "hand_card_drawn":
            return t.gettext("🃏 You drew {card}: {text}").format(card=card, text=card_text(p["card"], t))
        case "drew_hand_card":
            return t.gettext("🃏 {name} drew a hand card.").format(name=name)
        case "peek_result":
            return t.gettext("👁 The token {here} is: {token}.").format(
                here=place(p["place"], t, AT), token=token_name(kind_of(p["token"]), t)
            )
        case "peeked":
            return t.gettext("👁 {name} peeked at the token {here}.").format(
                name=name, here=place(p["place"], t, AT)
            )
        case "sabotaged":
            return t.gettext("💥 {name} sabotaged {other}'s {card}!").format(
                name=name, other=ctx.name(p["owner"]), card=card
            )
        case "bribed":
            return t.gettext("💰 {name} bribed their way out ({amount}).").format(
                name=name, amount=money(int(p.get("paid", 0)), t)
            )
        case "surprise":
            return t.gettext(
                "🎁 {name} played Surprise!: the token goes {to}, and {here} lies {token}."
            ).format(
                name=name,
                to=place(p["target"], t, TO),
                here=place(p["place"], t, AT),
                token=token_name(str(p.get("kind", "")), t),
            )
        case "expedition_token":
            return t.gettext("🎒 A backpack: {name} gets an expedition card.").format(name=name)
        case "danger_token":
            return t.gettext("🎭 A mask: {name} faces a danger situation!").format(name=name)
        case "flip_cancelled":
            return t.gettext("{name} did not flip the token.").format(name=name)
        case "danger_card":
            return t.gettext("⚠️ {name} faces {card}: needs {needs}.").format(
                name=name, card=card, needs=requires_text(p.get("requires", ()), t)
            )
        case "danger_dice":
            return t.gettext("🎲 {name} rolled {dice}.").format(name=name, dice=dice_text(p["dice"]))
        case "rerolled":
            return t.gettext("🎲 {name} rerolled with {card}: {dice}.").format(
                name=name, card=card_name(p["card"], t), dice=dice_text(p.get("result", ()))
            )
        case "danger_passed" | "danger_failed":
            return danger_result(e, name, card, ctx)
        case "gem_roll":
            key = "✅" if p.get("success") else "❌"
            return t.gettext("{mark} {name} rolled for gems: {dice}.").format(
                mark=key, name=name, dice=dice_text(p["dice"])
            )
        case "duel":
            return t.gettext("⚔️ {attacker} challenges {defender} to a duel for {target}!").format(
                attacker=ctx.name(p["attacker"]),
                defender=ctx.name(p["defender"]),
                target=target_text(p["target"], t),
            )
        case "duel_dice":
            return t.gettext("🎲 {name} rolled {dice}.").format(name=name, dice=dice_text(p["dice"]))
        case "duel_defence":
            return t.gettext("🛡 {name} sets the mark: {k}× {face}.").format(
                name=ctx.name(p["defender"]), k=p["k"], face=face_name(p["face"], t)
            )
        case "duel_result":
            return duel_result(p, ctx)
        case "duel_rescued":
            return t.gettext("🤝 {name} rescues {other}!").format(name=name, other=ctx.name(p["defender"]))
        case "duel_void":
            return t.gettext("The duel ends with no loser.")
        case "card_taken":
            return t.gettext("⚔️ {name} takes {card} from {other}.").format(name=name, card=card, other=other)
        case "item_taken":
            return t.gettext("⚔️ {name} takes the {item} from {other}.").format(
                name=name, item=token_word(str(p.get("item", "")), t), other=other
            )
        case "offer":
            return offer_text(name, ctx.name(p["receiver"]), p.get("give", ()), p.get("get", ()), t)
        case "offer_declined":
            return t.gettext("{name} declined the offer.").format(name=name)
        case "traded":
            return t.gettext("🤝 {name} and {other} traded: {give} for {get}.").format(
                name=name,
                other=other,
                give=items_text(p.get("give", ()), t),
                get=items_text(p.get("get", ()), t),
            )
    return False


def duel_result(p: dict[str, Any], ctx: RenderContext) -> str:
    """Who won the duel and by how much, in words: the challenger wins with at least as many dice
    of the defender's face as the defender rolled (k); a tie goes to the challenger (§5.12)."""
    t = ctx.t
    winner = ctx.name(p["winner"])
    hits, k = int(p.get("hits", 0)), int(p.get("k", 0))
    face = face_name(str(p.get("face") or ""), t)
    if p["winner"] == p.get("defender"):
        attacker = ctx.name(p["attacker"]) if isinstance(p.get("attacker"), int) else ""
        if not hits:
            return t.gettext("🏅 {name} wins the duel: {other} needed {k}× {face} but got none.").format(
                name=winner, other=attacker, k=k, face=face
            )
        return t.gettext("🏅 {name} wins the duel: {other} needed {k}× {face} but got only {hits}.").format(
            name=winner, other=attacker, k=k, face=face, hits=hits
        )
    if not k:
        return t.gettext(
            "🏅 {name} wins the duel without rolling: the defender's dice were all blank."
        ).format(name=winner)
    if hits == k:
        return t.gettext(
            "🏅 {name} wins the duel: {hits}× {face} was just enough (a tie goes to the challenger)."
        ).format(name=winner, hits=hits, face=face)
    return t.gettext("🏅 {name} wins the duel: {hits}× {face} where {k} were needed.").format(
        name=winner, hits=hits, face=face, k=k
    )


def danger_result(e: Event, name: str, card: str, ctx: RenderContext) -> str:
    """Whether the danger was survived and by how much: a failure names what the dice lacked, a
    success by the dice what they showed of what was needed (when the roll is among the events;
    else what was needed). Bribe and Dynamite get the plain line: their own lines tell the rest."""
    t = ctx.t
    p = e.p
    requires = _requires(str(p.get("card", "")))
    dice = p.get("dice")
    if e.code == "danger_passed":
        if p.get("reason", "roll") != "roll" or not requires:
            return t.gettext("✅ {name} survived {card}!").format(name=name, card=card)
        if dice is None:
            return t.gettext("✅ {name} survived {card}: the dice showed {needs}.").format(
                name=name, card=card, needs=requires_text(requires, t)
            )
        got = tuple((f, list(dice).count(f)) for f, _n in requires)
        if got == requires:
            return t.gettext("✅ {name} narrowly survived {card}: {needs}, just what was needed.").format(
                name=name, card=card, needs=requires_text(requires, t)
            )
        return t.gettext("✅ {name} survived {card}: the dice showed {got}, {needs} needed.").format(
            name=name, card=card, got=requires_text(got, t), needs=requires_text(requires, t)
        )
    if not requires:
        return t.gettext("❌ {name} failed {card}.").format(name=name, card=card)
    missing = (
        tuple((f, n - list(dice).count(f)) for f, n in requires if list(dice).count(f) < n) if dice else ()
    )
    if not missing:
        return t.gettext("❌ {name} failed {card}: {needs} needed.").format(
            name=name, card=card, needs=requires_text(requires, t)
        )
    return t.gettext("❌ {name} failed {card}: {missing} short.").format(
        name=name, card=card, missing=requires_text(missing, t)
    )
