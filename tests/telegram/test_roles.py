"""Issue #13 on Telegram (real PTB Application, fake Bot API): forged presses from another chat,
and the roles, with group admins told apart by ``getChatMember``."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANNA, BERTTA, CEDER, DAVID, GROUP, run

pytestmark = pytest.mark.telegram

OTHER_GROUP = -200
USERS = {
    ANNA: ("Anna", True),
    BERTTA: ("Bertta", True),
    CEDER: ("Ceder", True),
    DAVID: ("David", True),
}


def seats(h, mid: int) -> list[str]:
    return [s.name for s in h.core.repo.match(mid).seats]


def member_calls(h) -> list[dict]:
    return [c[2] for c in h.server.calls if c[1] == "getchatmember"]


def test_forged_lobby_presses_from_a_private_chat_or_another_group_change_nothing(tg):
    async def body():
        async with tg(users=USERS) as h:
            h.server.add_group(OTHER_GROUP, "Toinen")
            await h.say(ANNA, "/uusi majavajengi")
            await h.settle()
            mid = h.match_id()
            before = h.core.repo.match(mid)
            # David is in no chat with that match: he guesses the data of its buttons
            for chat in (DAVID, OTHER_GROUP):
                for data in (f"{mid}:0:@join", f"{mid}:1:@start", f"{mid}:0:@add_ai"):
                    qid = await h.server.press(DAVID, chat, 1, data)
                    answer = await h.server.wait_for(lambda q=qid: h.server.answer_of(q), 5, "answer")
                    assert "ei toimi täällä" in (answer.get("text") or "")
            await h.settle()
            after = h.core.repo.match(mid)
            assert (after.version, after.status, after.seats) == (before.version, before.status, before.seats)
            assert not any("Majavajengi" in t for t in h.server.texts(DAVID))
            assert not h.server.bot_messages(OTHER_GROUP)

    run(body(), timeout=40)


def test_roles_on_telegram_outsiders_are_refused_and_group_admins_are_asked_of_telegram(tg):
    async def body():
        async with tg(users=USERS) as h:
            await h.say(ANNA, "/uusi majavajengi")
            await h.say(BERTTA, "/liity")
            await h.settle()
            mid = h.match_id()
            # Ceder has no seat and is no admin: refused, and told who may
            await h.say(CEDER, "lisää botti")
            await h.settle()
            assert "Vain pelin aloittaja, pelaajat tai ryhmän ylläpitäjät" in h.group_texts()[-1]
            assert seats(h, mid) == ["Anna", "Bertta"]
            assert member_calls(h)[-1] == {"chat_id": GROUP, "user_id": CEDER}
            # an administrator (getChatMember says so) may; the answer is remembered briefly
            h.server.set_status(GROUP, DAVID, "administrator")
            await h.say(DAVID, "lisää botti")
            await h.settle()
            assert seats(h, mid) == ["Anna", "Bertta", "Botti 1"]
            asked = len(member_calls(h))
            await h.say(DAVID, "poista botti")
            await h.settle()
            assert seats(h, mid) == ["Anna", "Bertta"] and len(member_calls(h)) == asked
            await h.say(ANNA, "aloita")
            await h.settle()
            # a seated player who did not set the game up cannot end it
            await h.say(BERTTA, "/peru")
            await h.settle()
            assert "Sen voi lopettaa vain Anna, joka perusti pelin" in h.group_texts()[-1]
            assert h.core.repo.match(mid).status == "running"
            # the group's creator removes Bertta: an AI takes the seat, Bertta is told in private
            h.server.set_status(GROUP, CEDER, "creator")
            h.transport.members.cache.forget(str(GROUP))
            await h.say(CEDER, "poista Bertta pelistä")
            await h.settle()
            seat = h.core.repo.match(mid).seats[1]
            assert seat.user_id is None and seat.ai
            assert any("poisti sinut pelistä" in t for t in h.server.texts(BERTTA))
            # and gives the seat back
            await h.say(CEDER, "palauta Bertta peliin")
            await h.settle()
            assert h.core.repo.match(mid).seats[1].user_id is not None
            # Bertta hands her seat to David, who takes it by writing in the group
            await h.say(BERTTA, "anna paikkani Davidille")
            await h.say(DAVID, "otan paikan")
            await h.settle()
            david = h.core.repo.find_user("telegram", str(DAVID))
            assert h.core.repo.match(mid).seats[1].user_id == david.id
            assert any("David otti Bertan paikan." in t for t in h.group_texts())
            # the creator of the group ends the game
            await h.say(CEDER, "/peru")
            await h.settle()
            assert h.core.repo.match(mid).status == "cancelled"

    run(body(), timeout=60)


def test_in_a_forum_group_a_topics_buttons_work_only_there_and_the_groups_admins_run_every_topic(tg):
    forum = -300

    async def body():
        async with tg(users=USERS) as h:
            server = h.server
            server.add_group(forum, "Pelikerho", topics=(11, 12))
            await server.send(ANNA, forum, "/uusi majavajengi", thread=11)
            await h.settle()
            lobby = [m for m in server.bot_messages(forum, thread=11) if m.callback_data()][-1]
            mid = int(lobby.callback_data()[0].split(":")[0])
            # the lobby's data sent from General or from the other topic does nothing
            for thread in (None, 12):
                await server.send(DAVID, forum, "apua", thread=thread)
                await h.settle()
                elsewhere = server.bot_messages(forum, thread=thread)[-1]
                qid = await server.press(DAVID, forum, elsewhere.message_id, f"{mid}:0:@join")
                answer = await server.wait_for(lambda q=qid: server.answer_of(q), 5, "answer")
                assert "ei toimi täällä" in (answer.get("text") or "")
            assert seats(h, mid) == ["Anna"]
            # the group's administrator runs the lobby of a topic; getChatMember asks about the group
            server.set_status(forum, DAVID, "administrator")
            await server.send(DAVID, forum, "lisää botti", thread=11)
            await h.settle()
            assert seats(h, mid) == ["Anna", "Botti 1"]
            assert member_calls(h)[-1] == {"chat_id": forum, "user_id": DAVID}

    run(body(), timeout=40)


def test_a_seat_goes_to_the_person_a_mention_or_a_reply_names_never_to_a_namesake(tg):
    """Issue #27: "anna paikkani X:lle" was taken by a newcomer who called herself X. On Telegram the
    receiver is named by an @username, a text mention (someone without a username) or a reply; the
    English-speaking Liisa gets everything private in English in a Finnish group."""
    liisa_en, liisa_fi = 21, 22

    async def body():
        async with tg(users=USERS) as h:
            h.server.add_user(liisa_en, "Liisa", "en", username="liisa_k")
            h.server.add_user(liisa_fi, "Liisa", "fi")
            await h.say(ANNA, "/uusi majavajengi")
            await h.say(BERTTA, "/liity")
            await h.say(ANNA, "aloita")
            await h.say(liisa_en, "moi")
            await h.say(liisa_fi, "moikka")
            ceder = await h.say(CEDER, "saanko minä pelata seuraavaksi?")
            await h.settle()
            mid = h.match_id()
            # two Liisas: the typed name alone is not enough, the answer says how to name her
            await h.say(BERTTA, "anna paikkani Liisalle")
            await h.settle()
            assert "Mainitse" in h.group_texts()[-1] and "@nimi" in h.group_texts()[-1]
            # her @username names her; the other Liisa cannot take it
            await h.say(BERTTA, "anna paikkani @liisa_k")
            await h.say(liisa_fi, "otan paikan")
            await h.settle()
            assert "Vain hän voi ottaa sen" in h.group_texts()[-1]
            await h.say(liisa_en, "otan paikan")
            await h.settle()
            taker = h.core.repo.find_user("telegram", str(liisa_en))
            assert h.core.repo.match(mid).seats[1].user_id == taker.id
            assert any(t == "Liisa otti Bertan paikan." for t in h.group_texts())
            # her hand comes in English, though the group plays in Finnish
            private = h.server.bot_messages(liisa_en)
            assert private and not any("Kätesi" in m.shown or "Sinun vuorosi" in m.shown for m in private)
            # and so does a toast, for a press in the group
            qid = await h.server.press(liisa_en, GROUP, h.table().message_id, f"{mid}:0:draw")
            answer = await h.server.wait_for(lambda: h.server.answer_of(qid), 5, "answer")
            assert "stale" in (answer.get("text") or ""), answer
            # a text mention names the other Liisa, who has no username
            await h.say(liisa_en, "give my seat to Liisa", text_mentions={"Liisa": liisa_fi})
            await h.say(liisa_fi, "otan paikan")
            await h.settle()
            other = h.core.repo.find_user("telegram", str(liisa_fi))
            assert h.core.repo.match(mid).seats[1].user_id == other.id
            assert h.core.repo.match(mid).seats[1].name == "Liisa"
            # a reply to Ceder's message names Ceder
            await h.say(liisa_fi, "anna paikkani", reply_to=ceder.message_id)
            await h.say(CEDER, "otan paikan")
            await h.settle()
            assert h.core.repo.match(mid).seats[1].user_id == h.core.repo.find_user("telegram", str(CEDER)).id

    run(body(), timeout=60)


def test_added_to_a_group_the_bot_greets_it_in_the_language_of_whoever_added_it(tg):
    """Issue #27: the bot said nothing when it was added to a group. A my_chat_member update (the bot
    becomes a member) brings a greeting with how to start, in the adder's language while the group
    has none of its own; added to a group with a game, it says the game goes on instead."""
    english, finnish = -1002, -1003

    async def body():
        async with tg(users=USERS) as h:
            h.server.add_user(31, "Eve", "en-GB")
            for chat in (english, finnish):
                h.server.add_group(chat)
                h.server.removed.add(chat)
            await h.server.add_bot(english, by=31)
            await h.server.add_bot(finnish, by=ANNA)
            await h.settle()
            hello_en = h.group_texts(english)
            assert len(hello_en) >= 1 and "new gnav" in hello_en[0] and "“join”" in hello_en[0], hello_en
            hello_fi = h.group_texts(finnish)
            assert hello_fi and "uusi gnav" in hello_fi[0] and "”aloita”" in hello_fi[0], hello_fi
            # the greeting's advice works: a game set up there is in the group's language
            await h.say(ANNA, "uusi gnav", chat=finnish)
            await h.settle()
            assert any("odotetaan pelaajia" in t for t in h.group_texts(finnish))

    run(body(), timeout=40)
