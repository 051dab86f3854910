"""Questions to the bot: the help, the list of games, the rules ("miten kurkistus toimii?") and "why"
questions, answered from the engine's refusal of the move they name, the speaker's last refused
move, or the last events with the rule behind them; each in the language it was asked in.
"""

from __future__ import annotations

from typing import Any

from chatbot.core import i18n
from chatbot.core.asked import answer_button
from chatbot.core.commands import Command
from chatbot.core.decoded import Decoded, Finder
from chatbot.core.explain import find_topics, game_named
from chatbot.core.gameui import GameUI, RenderContext, Situation
from chatbot.core.i18n import Translator
from chatbot.core.nlp import Lemmatizer, detect_language, fold
from chatbot.core.parsing import NotLegal, ParseContext, Parsed
from chatbot.core.people import seat_names
from chatbot.core.ports import RUNNING, MatchRec
from chatbot.core.render import Renderer
from chatbot.core.types import Inbound, Outbound
from chatbot.core.usecase import Speaker, reply
from engines.contract import Engine, IllegalAction

#: match meta key: the last refusal per seat ({seat: {"code": …, "params": …}}), for "miksi?"
META_REFUSAL = "last_refusal"

#: "miksi en voi kääntää?" / "why can't I flip?": the question words before the move
_WHY = {"miksi", "miks", "miksei", "why"}
#: "miksi?", "miksi ei käy?", "why not?": a bare "why" that asks about the last refused move
_BARE_WHY = {
    "ei",
    "en",
    "not",
    "kay",
    "onnistu",
    "toimi",
    "mennyt",
    "menny",
    "that",
    "so",
    "nyt",
    "sitten",
    "noin",
}
_WHY_FILLER = {
    "en",
    "et",
    "ei",
    "voi",
    "voida",
    "pysty",
    "saa",
    "cant",
    "can't",
    "cannot",
    "can",
    "i",
    "not",
    "may",
}


def public(text: str) -> Situation:
    """An answer anyone may read."""
    return Situation(text, hidden=False)


def games_text(uis: dict[str, GameUI], games: dict[str, Engine], t: Translator) -> str:
    """The games one can set up, with their player counts and the word that sets each up."""
    names = []
    for gid, ui in uis.items():
        engine = games.get(gid)
        if engine is None:
            continue
        names.append(
            t.gettext("{game} ({low}–{high} players): new {alias}").format(
                game=ui.title(t), low=engine.min_players, high=engine.max_players, alias=ui.aliases[0]
            )
        )
    return t.gettext("Games:") + "\n" + "\n".join(f"• {n}" for n in names)


class Questions:
    """Answers to questions about the bot, the games and their rules."""

    def __init__(
        self,
        games: dict[str, Engine],
        uis: dict[str, GameUI],
        lemmatizer: Lemmatizer,
        decoded: Decoded,
        finder: Finder,
        renderer: Renderer,
    ) -> None:
        self.games = games
        self.uis = uis
        self.lemmatizer = lemmatizer
        self.decoded = decoded
        self.finder = finder
        self.renderer = renderer

    def translator(self, sp: Speaker, text: str, cmd: Command | None = None) -> Translator:
        """A question is answered in the language it is asked in, whatever the room's language; a
        text too short to tell follows the speaker's language."""
        lang = (cmd.lang if cmd is not None else None) or detect_language(text, sp.lang, self.lemmatizer)
        return i18n.translator(lang if lang in i18n.LANGUAGES else sp.lang)

    def games_text(self, t: Translator) -> str:
        return games_text(self.uis, self.games, t)

    def help_text(self, msg: Inbound, sp: Speaker, t: Translator) -> str:
        lines = [
            t.gettext("I host table games. Commands:"),
            t.gettext("• new GAME – set up a game (e.g. “new majavajengi”)"),
            t.gettext("• join – take a seat; add bot (easy / normal / strong) / remove bot – AI players"),
            t.gettext("• start – deal the cards; leave – give your seat to an AI; cancel – end the game"),
            t.gettext("• status – the table; hand – your cards in private"),
            t.gettext("• give my seat to NAME – someone else plays on; they write “take seat”"),
            t.gettext(
                "• kick NAME, give NAME’s seat to a bot, restore NAME – for the one who set up the game "
                "and the group’s admins"
            ),
            t.gettext(
                "• rematch – the finished game again with the same players; “new GAME pace=daily” for a game "
                "played over days"
            ),
            t.gettext("• rules [topic] – explanations, or ask: “how does peek work?”"),
            t.gettext(
                "• stats, my stats, history – who has won, what was played; replay N – watch a finished game again"
            ),
            t.gettext("• language fi / language en – choose your language"),
            t.gettext("In a game, write what you want to do, or use the buttons."),
        ]
        match = self.finder.context_match(msg, sp)
        if match is not None and match.status == RUNNING and match.state is not None:
            seat = self.finder.seat_of(match, sp.user, prefer_acting=True)
            if seat is not None:
                lines.append(self.renderer.hint(match, seat, t, private=msg.private))
        return "\n".join(lines)

    def answer(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> list[Outbound] | None:
        """:meth:`rules_text` as the messages to send: an answer that tells what only the asker's seat
        knows goes to the asker in private, and a group hears only that it went there (issue #27:
        "Miksi en voi …?" in the group once answered with the asker's hidden card). None for a
        question said in a group to someone else."""
        found = self.rules_text(msg, sp, t, cmd)
        if found is None:
            return None
        if not found.hidden or msg.private:
            return [reply(msg, t, found.text, found.buttons)]
        return [
            reply(msg, t, found.text, private=True),
            reply(msg, t, t.gettext("I answered you in our private chat.")),
        ]

    def topic_answer(self, msg: Inbound, t: Translator, key: str) -> list[Outbound] | None:
        """The rule topic ``key`` explained (a press of a "which rule" button), None when no game has it."""
        for ui in self.uis.values():
            for topic in ui.rule_topics():
                if topic.key == key:
                    return [reply(msg, t, f"{ui.title(t)} – {t.gettext(topic.text)}")]
        return None

    def rules_text(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> Situation | None:
        """The rule explanation a question asks for; "why" questions from the engine's refusal of
        the move they name, the last refused move, or the last events with the rule behind them
        (``hidden`` when it tells what only the asker's seat knows). None for a question said in a
        group to someone else (no topic, not addressed)."""
        why = self._why_text(msg, sp, t, cmd)
        if why is not None:
            return why
        asks_why = bool(cmd.args) and fold(cmd.args[0]) in _WHY
        if asks_why and all(fold(w) in _WHY | _BARE_WHY | _WHY_FILLER for w in cmd.args):
            last = self._last_refusal_text(msg, sp, t)
            if last is not None:
                return last
        match = self.finder.context_match(msg, sp)
        current = match.game if match else None
        words = [w for w in cmd.args]
        named = game_named(words, self.uis.values()) if words else None
        if named is not None:
            current = named.game_id
        topics = (
            find_topics(cmd.raw_args, self._ordered_uis(current), self.lemmatizer, prefer=current)
            if words
            else []
        )
        if topics and (named is None or len(words) > 1):
            distinct = list(dict.fromkeys(topic.key for _, topic in topics))
            if len(distinct) > 1 and len(distinct) <= 4:
                # two rules fit as well: ask rather than guess
                chosen = {topic.key: topic for _, topic in topics if topic.title}
                titles = [t.gettext(topic.title) for topic in chosen.values()]
                if len(titles) == len(distinct) and len(set(titles)) == len(titles):
                    # a button for each (issue #27: the question once came without any)
                    question = t.gettext("Which rule do you mean: {options}?").format(
                        options=t.format_choices(f"“{title}”" for title in titles)
                    )
                    rows = tuple(
                        (answer_button(title, sp.user.id, "rule", key),)
                        for key, title in zip(chosen, titles, strict=True)
                    )
                    return Situation(question, hidden=False, buttons=rows)
            found, topic = topics[0]
            text = f"{found.title(t)} – {t.gettext(topic.text)}"
            if asks_why and match is not None and match.status == RUNNING and match.state is not None:
                recent = self._last_events_lines(match, t)
                if recent:
                    text = t.gettext("What happened last: {events}").format(events=recent) + "\n\n" + text
            return public(text)
        overview_asked = bool(cmd.args) and fold(cmd.args[0]) in {
            "saannot",
            "saanto",
            "rules",
            "rule",
            "ohjeet",
        }
        if not (msg.private or msg.addressed or cmd.slash or named or overview_asked):
            return None  # a question in the group to someone else
        ui = self.uis.get(current) if current else None
        if ui is None:
            return public(
                t.gettext("Which game? Ask for example “rules majavajengi”.") + "\n" + self.games_text(t)
            )
        overview = ui.rule_topics()
        first = [t.gettext(x.text) for x in overview[:2]]
        keys = [x.title or x.key.split(".", 1)[-1] for x in overview[2:]]
        return public(
            "\n\n".join(
                [
                    f"{ui.title(t)}",
                    *first,
                    t.gettext("Ask about any rule, for example: {examples}.").format(
                        examples=t.format_list([t.gettext(k) for k in keys[:8]])
                    ),
                ]
            )
        )

    def _last_events_lines(self, match: MatchRec, t: Translator) -> str:
        """The public events of the last few moves, as the table told them."""
        ui = self.uis[match.game]
        names = seat_names(match.seats)
        events = [e for batch in self.decoded.recent_public_events(match)[-3:] for e in batch]
        lines = ui.render_events(events, RenderContext(t, names, None, match.options)) if events else []
        return " ".join(lines[-4:])

    def _why_text(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> Situation | None:
        """ "miksi en voi kääntää?": the engine's refusal of that move for the speaker now, or None
        when the question names no move (then the rule topics answer). Hidden unless the speaker's
        moves may all be shown in the group: a legal move's label or a refusal's reason may name a
        card of the speaker's hand."""
        if not cmd.args or fold(cmd.args[0]) not in _WHY:
            return None
        match = self.finder.context_match(msg, sp)
        if match is None or match.status != RUNNING or match.state is None:
            return None
        seat = self.finder.seat_of(match, sp.user, prefer_acting=True)
        if seat is None:
            return None
        engine, ui = self.games[match.game], self.uis[match.game]
        turn = self.decoded.turn(match, seat)
        names = seat_names(match.seats)
        words = [w for w in cmd.args[1:] if fold(w) not in _WHY_FILLER]
        ctx = ParseContext(
            lang=t.lang, seat=seat, legal=turn.legal, view=turn.view, seat_names=names, private=msg.private
        )
        result = ui.parse(" ".join(words), ctx)
        rctx = RenderContext(t, names, seat, match.options)
        hidden = not turn.group_safe(ui)
        code: str | None = None
        params: dict[str, Any] = {}
        if isinstance(result, NotLegal):
            code, params = result.code, dict(result.params)
        elif isinstance(result, Parsed) and result.actions:
            try:
                engine.check(turn.state, seat, result.actions[0])
            except IllegalAction as exc:
                code, params = exc.code, exc.params
            else:
                notation = turn.notation(result.actions[0])
                private = hidden and notation not in turn.group_notations(ui)
                # told where the group reads it, the move is named as the group's table names it:
                # the seat's own label may tell its hand ("Vaihdan (matadori lähtee)" in Gnav)
                label = (
                    ui.action_label(notation, turn.view, rctx)
                    if private or msg.private
                    else ui.action_label(
                        notation, turn.public_view, RenderContext(t, names, None, match.options)
                    )
                )
                return Situation(t.gettext("You can do that now: {action}.").format(action=label), private)
        if code is None:
            return None
        return Situation(ui.reason_text(code, params, rctx), hidden)

    def _last_refusal_text(self, msg: Inbound, sp: Speaker, t: Translator) -> Situation | None:
        """ "miksi?", "miksi ei käy?", "why not?": the reason of the speaker's last refused move."""
        match = self.finder.context_match(msg, sp)
        if match is None or match.status != RUNNING:
            return None
        seat = self.finder.seat_of(match, sp.user, prefer_acting=True)
        if seat is None:
            return None
        last = (match.meta.get(META_REFUSAL) or {}).get(str(seat))
        if not last:
            return None
        ui = self.uis[match.game]
        names = seat_names(match.seats)
        reason = ui.reason_text(
            last["code"], dict(last.get("params") or {}), RenderContext(t, names, seat, match.options)
        )
        hidden = match.state is None or not self.decoded.turn(match, seat).group_safe(ui)
        return Situation(t.gettext("Your last move was refused: {reason}").format(reason=reason), hidden)

    def _ordered_uis(self, prefer: str | None) -> list[GameUI]:
        if prefer and prefer in self.uis:
            return [self.uis[prefer]]
        return list(self.uis.values())
