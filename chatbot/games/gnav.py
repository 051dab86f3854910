"""Gnav as on Cardavia in chat: names, rule texts, renderers, buttons and the parser entry point.

Renderers take views only. The group sees the public table: lives, who rests or is out, the dealer, whose
turn it is, every card the rules make public (a fool, a matador that answered, all seat cards at the end
of a deal) and each exchange as it happens, by seat names only. A seat's own card and what it learnt in an
exchange reach only its private chat (spec §6).

Cards are written by rank, never by the engine's instance id: "[VII]", "[🐎 hevonen]". The brackets
make every card in a text easy to spot for players and exact to find for the no-leak checks
(:func:`cards_in`). The matadors' traditional calls are quoted with the call and its effect in the
reader's language (spec §8.5); their Finnish templates keep player names in the nominative.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from chatbot.core.i18n import N_, Translator
from chatbot.core.parsing import ParseContext, ParseResult
from chatbot.core.ports import GameUI, RenderContext, RuleTopic
from chatbot.games import gnav_parser
from engines.contract import Event
from engines.gnav import rank_of

ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")
MARKER = {
    "fool": "🃏", "owl": "🦉", "pot": "🪴", "house": "🏠", "horse": "🐎", "cat": "🐈", "dragoon": "⚔️",
    "cuckoo": "🐦",
}
MATADORS = gnav_parser.MATADORS

TOPICS = (
    RuleTopic("gnav.goal", N_("Everyone starts with the same number of lives, 3 by default. In each deal, try not to be left holding the lowest card, because its holder loses a life. Run out of lives and you are out; the last player still in wins."),
              ("tavoite", "voitto", "voittaa", "goal", "win", "aim"), N_("goal")),
    RuleTopic("gnav.turn", N_("Everyone gets one card, and turns go clockwise from the dealer's left, with the dealer last. On your turn you either keep your card or ask the player on your left to swap. A number, 0, pot, owl or fool must be handed over; a matador answers in its own way instead."),
              ("vuoro", "vaihto", "vaihtaa", "pitää", "turn", "swap", "keep"), N_("the turn")),
    RuleTopic("gnav.deck", N_("The deck has 42 cards: 21 ranks, two of each, and no suits. From lowest to highest: fool, owl, pot, 0, I to XII, house, horse, cat, dragoon, cuckoo. The top five, house to cuckoo, are the matadors."),
              ("järjestys", "arvot", "arvo", "pakka", "kortit", "pöllö", "kukkaruukku", "order", "deck", "ranks",
               "owl", "pot"), N_("the deck")),
    RuleTopic("gnav.matador", N_("The matadors are the five highest cards: house, horse, cat, dragoon and cuckoo. Nobody ever has to hand one over, and they act only when someone asks their holder to swap. The bot announces each one with its traditional call."),
              ("matadori", "matadorit", "huuto", "matador", "matadors", "call"), N_("matadors")),
    RuleTopic("gnav.matador.cuckoo", N_("The cuckoo is the highest card. If you ask its holder to swap, the call is “Stå for gjøk!” (stop, cuckoo!): the deal stops right there and all cards are turned up. You keep your own card and lose nothing for asking."),
              ("käki", "gjøk", "gjok", "cuckoo"), N_("cuckoo")),
    RuleTopic("gnav.matador.dragoon", N_("The dragoon refuses with “Hogg av!” (chop!): the player who asked loses a life and keeps their own card. Play moves on to the player on the dragoon holder's left."),
              ("rakuuna", "lohikäärme", "hogg", "dragoon", "dragon"), N_("dragoon")),
    RuleTopic("gnav.matador.cat", N_("The cat refuses with “Kiss!” (puss!): the player who asked loses a life, and every swap made earlier in this deal is undone, so everyone gets back the card they held before those swaps. Play moves on to the player on the cat holder's left."),
              ("kissa", "kiss", "cat", "puss"), N_("cat")),
    RuleTopic("gnav.matador.cat.traditional", N_("Under the traditional rule the cat works exactly like the dragoon: the player who asked loses a life and keeps their card, and no swaps are undone."),
              ("perinteinen kissa", "perinteinen", "traditional cat", "traditional"), N_("traditional cat")),
    RuleTopic("gnav.matador.horse", N_("The horse refuses with “Hest forbi!” (horse, go past!) but costs nobody anything. The request passes it by and goes to the next player on the left; if the dealer holds the horse, the request goes on to the stock."),
              ("hevonen", "hest", "horse"), N_("horse")),
    RuleTopic("gnav.matador.house", N_("The house works like the horse: the call is “Hus forbi!” (house, go past!), and the request moves on to the next player on the left, or to the stock if the dealer holds it. It ranks just below the horse and above every number."),
              ("talo", "hus", "house"), N_("house")),
    RuleTopic("gnav.fool", N_("The fool is the lowest card and is always shown to everyone, whoever holds it. If one fool is in play at the end of a deal, its holder loses a life and so does whoever holds the next-lowest card; if both fools are in play, only their two holders lose. A fool holder who survives sits out the next deal."),
              ("narri", "koputus", "koputtaa", "fool", "knock"), N_("fool")),
    RuleTopic("gnav.dealer", N_("The dealer plays last and may keep or swap with the top card of the undealt stock. A horse or house drawn is set aside and another card drawn, while a cuckoo, dragoon or cat drawn acts just as it would in a player's hand. A request that passes the dealer's horse or house also goes to the stock."),
              ("jakaja", "pakka", "pakasta", "dealer", "stock", "draw"), N_("the dealer")),
    RuleTopic("gnav.settlement", N_("When everyone has had their turn, or a cuckoo has stopped the deal, all cards are turned up. With no fool in play, the holder of the lowest card loses a life, and if several tie for lowest, each of them loses one. With a fool in play, the fool rule applies instead."),
              ("tilitys", "häviää", "hävitä", "alin", "jaon loppu", "settlement", "lose", "lowest"), N_("settlement")),
    RuleTopic("gnav.lives", N_("Everyone starts with the same number of lives, 3 by default. You can lose a life at the end of a deal, or mid-deal to a dragoon or cat; at zero you are out at once and take no further part. The last player left wins; if all remaining players lose their last life at the same time, the match is a draw."),
              ("elämä", "elämät", "pudota", "tasapeli", "lives", "life", "draw game", "out"), N_("lives")),
    RuleTopic("gnav.resting", N_("A player who held a fool at the end of a deal and survived sits out the next deal: no card, no turn, no lives at stake. If resting leaves fewer than two players for a deal, that deal is skipped and nobody loses a life."),
              ("lepo", "levätä", "lepää", "lepäävä", "rest", "resting", "sit out"), N_("resting")),
    RuleTopic("gnav.info", N_("You see your own card in a private message; everyone else's stays hidden. When you swap, you see the card you get and your partner sees yours; the others only see that a swap happened. The fool, the matador calls and the cards at the end of the deal are shown to everyone."),
              ("salainen", "piilossa", "piilo", "näkyä", "nähdä", "hidden", "secret", "see"), N_("hidden cards")),
)
TOPIC_TEXT = {topic.key: topic.text for topic in TOPICS}

# Every reason code of the engine, of the spec's chat layer and of the parser, each with the way forward.
REASONS = {
    "unknown_action": N_("That is not a move in Gnav. On your turn, keep your card or ask for a swap."),
    "bad_action": N_("That is not a move in Gnav. On your turn, keep your card or ask for a swap."),
    "game_over": N_("The match is already over. Start a new one with “new gnav”."),
    "no_such_seat": N_("There is no such player at this table. A swap is always asked from the player on your left."),
    "eliminated": N_("You are out of this match: your lives have run out. You can still follow the game here."),
    "resting": N_("You are resting this deal because you held the fool and survived. You play again in the next deal."),
    "must_knock": N_("You were dealt the fool: knock first (“knock”), then the turns begin."),
    "waiting_for_knock": N_("The deal waits for a player dealt the fool to knock. The turns begin right after that."),
    "nothing_to_knock": N_("Only a player dealt the fool knocks. On your turn, keep your card or ask for a swap."),
    "stock_dealer_only": N_("Only the dealer swaps with the stock. On your turn, keep your card or ask the player on your left to swap."),
    "matador_give_away": N_("You hold a matador, and nobody can make you hand it over. To give it away anyway, write “swap anyway”; to keep it, write “keep”."),
    "next_deal_auto": N_("The next deal starts by itself when a deal ends, and it is already running."),
}
# Spec §9: a refusal adds the rule text that explains it.
REASON_TOPIC = {
    "not_your_turn": "gnav.turn", "stock_dealer_only": "gnav.dealer", "resting": "gnav.resting",
    "eliminated": "gnav.lives", "matador_give_away": "gnav.matador",
}


# --- cards -------------------------------------------------------------------------------------------


def rank_name(rank: str, t: Translator) -> str:
    """The name of a rank: "VII", "0", "hevonen"."""
    if rank.startswith("n") and rank[1:].isdigit():
        return ROMAN[int(rank[1:]) - 1]
    match rank:
        case "zero":
            return "0"
        case "fool":
            return t.pgettext("gnav card", "fool")
        case "owl":
            return t.pgettext("gnav card", "owl")
        case "pot":
            return t.pgettext("gnav card", "pot")
        case "house":
            return t.pgettext("gnav card", "house")
        case "horse":
            return t.pgettext("gnav card", "horse")
        case "cat":
            return t.pgettext("gnav card", "cat")
        case "dragoon":
            return t.pgettext("gnav card", "dragoon")
        case "cuckoo":
            return t.pgettext("gnav card", "cuckoo")
    return rank


def card_name(rank_or_id: str, t: Translator) -> str:
    """A card for people from a rank id or an instance id: "[VII]", "[🐎 hevonen]"."""
    rank = rank_of(rank_or_id)
    marker = MARKER.get(rank)
    return f"[{marker} {rank_name(rank, t)}]" if marker else f"[{rank_name(rank, t)}]"


def cards_in(text: str) -> list[str]:
    """Every card named in a rendered text (the bracketed names, without markers), for checks."""
    return [re.sub(r"^\S+ ", "", m) if " " in m else m for m in re.findall(r"\[([^\]]+)\]", text)]


def hearts(lives: int) -> str:
    return f"❤️×{lives}" if lives > 0 else "✖"


def lives_left(n: int, t: Translator) -> str:
    return t.ngettext("{n} life left", "{n} lives left", n).format(n=n)


# --- the UI ------------------------------------------------------------------------------------------


class GnavUI(GameUI):
    game_id = "gnav"
    domain = "gnav"
    # spec §1: the start aliases; the first one is shown in the list of games
    aliases = ("gnav", "käkipeli", "kakipeli", "cuckoo", "cardavia")

    def title(self, t: Translator) -> str:
        return "🐦 " + t.gettext("Gnav (cuckoo game)")

    def rule_topics(self) -> Sequence[RuleTopic]:
        return TOPICS

    def option_words(self) -> dict[str, str]:
        # "uusi gnav elämät=2", "perinteinen_kissa=kyllä", "narri_näkyy=ei" (then a fool holder knocks)
        return {
            "elämät": "lives", "elämiä": "lives", "elamat": "lives", "elamia": "lives", "henget": "lives",
            "perinteinen_kissa": "traditional_cat", "perinteinen": "traditional_cat",
            "traditional": "traditional_cat", "narri_näkyy": "fool_auto_reveal", "narri_nakyy": "fool_auto_reveal",
            "auto_reveal": "fool_auto_reveal",
        }

    # --- the table ---------------------------------------------------------------------------
    def render_table(self, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        lines = [t.gettext("{game} – deal {deal}").format(game=self.title(t), deal=view.deal),
                 self._status_line(view, ctx)]
        in_deal = [s for s in view.order if s not in view.departed]
        for number, seat in enumerate(view.order, 1):
            lines.append(f"{number}. " + self._seat_line(seat, view, ctx))
        others = [s for s in range(view.players) if s not in view.order]
        for seat in others:
            lines.append("   " + self._seat_line(seat, view, ctx))
        if view.phase != "over" and len(in_deal) >= 2:
            lines.append(t.ngettext("Stock: {n} card", "Stock: {n} cards", view.stock_size).format(
                n=t.format_number(view.stock_size)))
        return "\n".join(lines)

    def _status_line(self, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        if view.phase == "over":
            return t.gettext("🏁 The match is over.")
        if view.phase == "knock":
            return t.gettext("▶ A player dealt the fool knocks first; then the turns begin.")
        seat = view.order[view.turn]
        if seat == view.dealer:
            return t.gettext("▶ Turn: {name} (dealer) – keep, or swap with the stock.").format(name=ctx.name(seat))
        return t.gettext("▶ Turn: {name} – keep, or ask for a swap.").format(name=ctx.name(seat))

    def _seat_line(self, seat: int, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        parts = [ctx.name(seat), hearts(view.lives[seat])]
        card = view.hands[seat]
        if card is not None:
            parts.append(card_name(card, t))
        notes = []
        if view.lives[seat] == 0:
            notes.append(t.pgettext("seat", "out"))
        elif seat in view.resting:
            notes.append("😴 " + t.pgettext("seat", "resting"))
        if seat == view.dealer and view.phase != "over":
            notes.append(t.pgettext("seat", "dealer"))
        line = " ".join(parts) + ("" if not notes else " · " + " · ".join(notes))
        # in the knock phase the seats to act are the holders of unshown fools: no mark for them
        if view.phase == "turn" and seat in view.to_act:
            line += " ◀"
        return line

    def render_private(self, view: Any, ctx: RenderContext) -> str | None:
        t = ctx.t
        seat = view.seat
        lines = [t.gettext("Your lives: {hearts}").format(hearts=hearts(view.lives[seat]))]
        if view.phase == "over":
            lines.append(t.gettext("The match is over."))
            return "\n".join(lines)
        if view.lives[seat] == 0:
            lines.append(t.gettext("You are out of the match; you can follow the rest in the group."))
            return "\n".join(lines)
        if seat in view.resting:
            lines.append(t.gettext("😴 You rest this deal: no card, no turn, no lives at stake."))
            return "\n".join(lines)
        if view.own_card is not None:
            own = rank_of(view.own_card)
            lines.append(t.gettext("Your card: {card}").format(card=card_name(own, t)))
            if own in MATADORS:
                lines.append(t.gettext("It is a matador: nobody can make you hand it over."))
            elif own == "fool":
                lines.append(t.gettext("The fool is shown to everyone."))
        known = [f"{ctx.name(s)} {card_name(c, t)}" for s, c in enumerate(view.hands) if s != seat and c is not None]
        if known:
            lines.append(t.gettext("You know: {cards}").format(cards=", ".join(known)))
        stock = [card_name(c, t) for _, c in sorted(view.stock_known)]
        if stock:
            lines.append(t.gettext("You know the stock from the top: {cards}").format(cards=", ".join(stock)))
        if view.phase == "turn" and seat in view.order and seat not in view.departed \
                and view.order.index(seat) >= view.turn:
            responder = gnav_parser.responder_of(view, seat)
            if responder is None:
                lines.append(t.gettext("As the dealer, you would swap with the top card of the stock."))
            else:
                lines.append(t.gettext("If you ask for a swap, the request goes first to {name}.").format(
                    name=ctx.name(responder)))
        return "\n".join(lines)

    # --- events ------------------------------------------------------------------------------
    def render_events(self, events: Sequence[Event], ctx: RenderContext) -> list[str]:
        events = list(events)
        out: list[str] = []
        used: set[int] = set()  # events already told as part of an earlier line
        cards: tuple[tuple[int, str], ...] = ()  # the seat cards of the last reveal, for the settlement
        departed: tuple[int, ...] = ()
        for i, e in enumerate(events):
            if i in used:
                continue
            if e.code == "cards_revealed":
                cards, departed = tuple(e["cards"]), tuple(e["departed"])
            if e.code == "refused":
                out.extend(self._refused(events, i, used, ctx))
            elif e.code == "deal_settled":
                out.extend(self._settled(e, cards, departed, ctx))
            else:
                out.extend(self._event(e, ctx))
        return out

    def _refused(self, events: list[Event], i: int, used: set[int], ctx: RenderContext) -> list[str]:
        """A matador refusal, told with its life loss and the cat's undo in one sentence (spec §8.5)."""
        t = ctx.t
        p = events[i].p
        asker, rank = ctx.name(p["asker"]), p["rank"]
        holder = ctx.name(p["holder"]) if p["holder"] is not None else None
        lives: int | None = None
        undone = False  # the default cat's undo follows in the same batch; the traditional cat has none
        for j in range(i + 1, len(events)):
            e = events[j]
            if lives is None and e.code == "life_lost" and e["seat"] == p["asker"] and e["cause"] == rank:
                lives = e["lives"]
                used.add(j)
            elif e.code == "exchanges_undone":
                undone = True
        left = lives_left(lives, t) if lives is not None else ""
        values = {"asker": asker, "holder": holder, "lives": left}
        if rank == "cuckoo":
            text = (t.gettext("“Stå for gjøk!” – Stop, cuckoo! {holder} shows a cuckoo. The deal ends at once; "
                              "{asker} keeps their card.") if holder else
                    t.gettext("A cuckoo comes off the stock – “Stå for gjøk!” Stop, cuckoo! The deal ends at once; "
                              "{asker} keeps their card."))
        elif rank == "dragoon":
            text = (t.gettext("“Hogg av!” – Chop! {holder} shows a dragoon. {asker} loses a life ({lives}) and "
                              "keeps their card.") if holder else
                    t.gettext("A dragoon comes off the stock – “Hogg av!” Chop! {asker} loses a life ({lives}) and "
                              "keeps their card."))
        elif undone:
            text = (t.gettext("“Kiss!” – Puss! {holder} shows a cat. {asker} loses a life ({lives}), and every swap "
                              "of this deal is undone.") if holder else
                    t.gettext("A cat comes off the stock – “Kiss!” Puss! {asker} loses a life ({lives}), and every "
                              "swap of this deal is undone."))
        else:  # the traditional cat: like the dragoon
            text = (t.gettext("“Kiss!” – Puss! {holder} shows a cat. {asker} loses a life ({lives}) and keeps "
                              "their card.") if holder else
                    t.gettext("A cat comes off the stock – “Kiss!” Puss! {asker} loses a life ({lives}) and keeps "
                              "their card."))
        return [text.format(**values)]

    def _settled(self, e: Event, cards: tuple[tuple[int, str], ...], departed: tuple[int, ...],
                 ctx: RenderContext) -> list[str]:
        """Who lost a life at settlement and why, who is out and who rests (spec §3.7)."""
        t = ctx.t
        p = e.p
        rank = {s: r for s, r in cards if s not in departed}
        fools = [s for s, r in rank.items() if r == "fool"]
        lines = []
        for seat in p["losers"]:
            values = {"name": ctx.name(seat), "lives": lives_left(p["lives"][seat], t),
                      "card": card_name(rank.get(seat, "fool"), t)}
            if seat in fools:
                text = t.gettext("💔 {name}: the fool – loses a life ({lives}).")
            elif fools:
                text = t.gettext("💔 {name}: the lowest card besides the fool, {card} – loses a life ({lives}).")
            else:
                text = t.gettext("💔 {name}: the lowest card, {card} – loses a life ({lives}).")
            lines.append(text.format(**values))
        for seat in p["eliminated"]:
            lines.append(t.gettext("💀 {name} is out of the match.").format(name=ctx.name(seat)))
        for seat in p["rests"]:
            lines.append(t.gettext("😴 {name} held the fool and rests in the next deal.").format(name=ctx.name(seat)))
        return lines

    def _event(self, e: Event, ctx: RenderContext) -> list[str]:
        t = ctx.t
        p = e.p
        name = ctx.name(p["seat"]) if p.get("seat") is not None else ""
        match e.code:
            case "deal_started":
                lines = [t.gettext("━━━━ Deal {deal} ━━━━").format(deal=p["deal"]),
                         t.gettext("Dealer: {dealer}. Order: {order}.").format(
                             dealer=ctx.name(p["dealer"]), order=" → ".join(ctx.name(s) for s in p["order"]))]
                if p["resting"]:
                    lines.append(t.gettext("😴 Resting this deal: {names}.").format(
                        names=t.format_list([ctx.name(s) for s in p["resting"]])))
                return lines
            case "deal_skipped":
                return [t.gettext("Deal {deal} is skipped: fewer than two players can take part, so nobody loses "
                                  "anything.").format(deal=p["deal"])]
            case "your_card":
                return [t.gettext("New deal: your card is {card}.").format(card=card_name(p["rank"], t))]
            case "fool_shown":
                source = p["source"]
                if source == "knock":
                    return [t.gettext("{name} knocks: “Knock knock!” The card is {card}.").format(
                        name=name, card=card_name("fool", t))]
                if source == "stock":
                    return [t.gettext("{name} got {card} from the stock, and it is shown to everyone.")
                            .format(name=name, card=card_name("fool", t))]
                return [t.gettext("“Knock knock!” {name} was dealt {card}, and it is shown to everyone.")
                        .format(name=name, card=card_name("fool", t))]
            case "kept":
                return [t.gettext("{name} keeps their card.").format(name=name)]
            case "requested":
                return [t.gettext("{name} asks for a swap.").format(name=name)]
            case "passed_by":
                if p["rank"] == "horse":
                    return [t.gettext("“Hest forbi!” – Horse, go past! {name} shows a horse; the request moves on.")
                            .format(name=name)]
                return [t.gettext("“Hus forbi!” – House, go past! {name} shows a house; the request moves on.")
                        .format(name=name)]
            case "stock_passed_by":
                if p["rank"] == "horse":
                    return [t.gettext("A horse comes off the stock – “Hest forbi!” Horse, go past! Drawing again.")]
                return [t.gettext("A house comes off the stock – “Hus forbi!” House, go past! Drawing again.")]
            case "swapped":
                return [t.gettext("{asker} and {partner} swap cards.").format(
                    asker=ctx.name(p["asker"]), partner=ctx.name(p["partner"]))]
            case "stock_swapped":
                return [t.gettext("{asker} swaps with the top card of the stock.").format(asker=ctx.name(p["asker"]))]
            case "received" if p["partner"] is None:
                return [t.gettext("From the stock you got {card}.").format(card=card_name(p["rank"], t))]
            case "received":
                return [t.gettext("Swap with {name}: you got {card}.").format(
                    name=ctx.name(p["partner"]), card=card_name(p["rank"], t))]
            case "life_lost" if p["cause"] == "settlement":
                return []  # told with the settlement
            case "life_lost":  # only when not told with its refusal
                return [t.gettext("{name} loses a life ({lives}).").format(name=name, lives=lives_left(p["lives"], t))]
            case "eliminated" if p["cause"] == "settlement":
                return []  # told with the settlement
            case "eliminated":
                return [t.gettext("💀 {name} is out of the match at once; their card no longer counts in this deal.")
                        .format(name=name)]
            case "exchanges_undone":
                if not p["exchanges"]:
                    return [t.gettext("There were no swaps to undo.")]
                stock = t.gettext("the stock")
                pairs = [f"{ctx.name(a)} ↔ {ctx.name(b) if b is not None else stock}" for a, b in p["exchanges"]]
                return [t.gettext("Undone: {swaps}.").format(swaps=", ".join(pairs))]
            case "card_restored":
                return [t.gettext("The cat undid the swaps: your card is {card} again.").format(
                    card=card_name(p["rank"], t))]
            case "cards_revealed":
                shown = []
                for seat, rank in p["cards"]:
                    item = f"{ctx.name(seat)} {card_name(rank, t)}"
                    if seat in p["departed"]:
                        item += " (" + t.pgettext("seat", "out") + ")"
                    shown.append(item)
                return [t.gettext("Cards up: {cards}").format(cards=", ".join(shown))]
            case "deal_uncontested":
                return [t.gettext("Only one player is left in the deal, so the cards are not compared and nobody "
                                  "else loses a life.")]
            case "match_ended" if p["draw"]:
                return [t.gettext("🏁 The match ends in a draw: {names} lost their last lives at the same time.")
                        .format(names=t.format_list([ctx.name(s) for s in p["winners"]]))]
            case "match_ended":
                return [t.gettext("🏁 The match is over: {name} is the only one with lives left.").format(
                    name=t.format_list([ctx.name(s) for s in p["winners"]]))]
        return []  # deal_ended: the next deal's header or the match end says it

    # --- actions -------------------------------------------------------------------------------
    def action_label(self, notation: str, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        match notation:
            case "keep":
                return t.pgettext("gnav", "Keep")
            case "knock":
                return t.pgettext("gnav", "Knock knock")
            case "ask":
                if view is not None and view.phase == "turn" and view.order[view.turn] == view.dealer:
                    return t.pgettext("gnav", "Swap with the stock")
                own = getattr(view, "own_card", None) if getattr(view, "seat", None) is not None else None
                if own is not None and rank_of(own) in MATADORS:
                    # a press is deliberate, so the label itself is the confirmation of spec G9
                    return t.pgettext("gnav", "Swap (give the matador away)")
                return t.pgettext("gnav", "Swap")
        return notation

    def group_actions(self, legal: Sequence[str], public_view: Any) -> tuple[str, ...]:
        # Keeping or asking says nothing about the card; a knock would show the fool, so it stays private.
        return tuple(n for n in legal if n != "knock")

    def idle_action(self, legal: Sequence[str], view: Any) -> str | None:
        # Spec §4 and G24: a fool not yet shown is knocked for its holder; a turn is played by the normal AI.
        return "knock" if "knock" in legal else None

    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        return gnav_parser.parse(text, ctx)

    def reason_text(self, code: str, params: dict[str, Any], ctx: RenderContext) -> str:
        t = ctx.t
        if code == "not_your_turn" and params.get("turn") is not None:
            text = t.gettext("It is {name}’s turn now. Wait for your turn.").format(name=ctx.name(params["turn"]))
        elif code == "not_your_turn":
            text = t.gettext("It is not your turn. Wait for your turn.")
        elif code == "ask_goes_left" and params.get("responder") is not None:
            text = t.gettext("A swap is always asked from the next player on your left, now {name}.").format(
                name=ctx.name(params["responder"]))
        elif code == "ask_goes_left":
            text = t.gettext("As the dealer you swap with the top card of the stock, not with a player.")
        else:
            text = t.gettext(REASONS.get(code, REASONS["unknown_action"]))
        topic = REASON_TOPIC.get(code)
        return text + ("\n" + t.gettext(TOPIC_TEXT[topic]) if topic else "")


UI = GnavUI()
