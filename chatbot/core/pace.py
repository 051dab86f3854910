"""A match's pace (issue #16): how long the table waits for a person, and what happens then.

* ``tahti=live`` / ``pace=live`` (the default): a reminder after the core's ``remind_after`` (10 min,
  ``CHATBOT_REMIND_AFTER``) and the bot's move for the person after ``act_after`` (30 min,
  ``CHATBOT_ACT_AFTER``);
* ``tahti=päivä`` / ``pace=daily``: a reminder after 12 hours; the move is handed to the AI after 24
  hours only with ``sijainen=kyllä`` / ``standin=yes`` (without it the table waits for the person);
* ``tahti=ei`` / ``pace=off``: no reminders and no stand-in moves (AI seats and the quick reaction
  windows of a game keep their own short times: they are the game's flow, not waiting for a person).

Quiet hours, ``hiljaa=22-8`` / ``quiet=22-8`` (whole hours or ``22.30-7.15``), are read in the room's
time zone: a reminder or a stand-in move that would fall in them waits until they end. The room's
zone is ``vyöhyke=Europe/Stockholm`` / ``tz=Europe/Stockholm`` (an IANA name), remembered for the room
once given, else Europe/Helsinki. The pace is stored in the match's ``meta["pace"]`` (the engine never
sees it), and its deadlines are the stored deadline rows, so they survive restarts.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_date, format_time

from chatbot.core.i18n import Translator
from chatbot.core.nlp import fold

LIVE, DAILY, OFF = "live", "daily", "off"
#: the daily pace: a reminder after 12 h, the AI's move (if chosen) after 24 h
DAILY_REMIND, DAILY_ACT = 12 * 3600.0, 24 * 3600.0
DEFAULT_ZONE = "Europe/Helsinki"
#: kv namespace: a room's time zone, by room id
NS_ROOM_ZONE = "room-zone"

#: option names (folded) -> the pace field they set
_KEYS = {
    "tahti": "mode",
    "pace": "mode",
    "sijainen": "standin",
    "standin": "standin",
    "stand-in": "standin",
    "botti_siirtaa": "standin",
    "hiljaa": "quiet",
    "hiljaiset": "quiet",
    "hiljaiset_tunnit": "quiet",
    "quiet": "quiet",
    "quiet_hours": "quiet",
    "vyohyke": "zone",
    "aikavyohyke": "zone",
    "tz": "zone",
    "zone": "zone",
    "timezone": "zone",
}
_MODES = {
    "live": LIVE,
    "nopea": LIVE,
    "paiva": DAILY,
    "paivittain": DAILY,
    "hidas": DAILY,
    "daily": DAILY,
    "day": DAILY,
    "slow": DAILY,
    "ei": OFF,
    "off": OFF,
    "none": OFF,
    "pois": OFF,
}
_YES = {"kylla", "on", "yes", "true", "joo"}
_NO = {"ei", "off", "no", "false", "pois"}
_QUIET = re.compile(r"(\d{1,2})(?:[.:](\d{2}))?-(\d{1,2})(?:[.:](\d{2}))?")


@dataclass(frozen=True, slots=True)
class Pace:
    mode: str = LIVE
    #: whether the bot moves for a person who keeps the table waiting (live: yes, daily: no)
    standin: bool | None = None
    #: quiet hours as minutes after local midnight (start, end); None: none
    quiet: tuple[int, int] | None = None

    @property
    def stands_in(self) -> bool:
        return self.standin if self.standin is not None else self.mode == LIVE

    def to_meta(self) -> dict[str, Any]:
        return {"mode": self.mode, "standin": self.standin, "quiet": list(self.quiet) if self.quiet else None}

    @classmethod
    def from_meta(cls, data: Any) -> Pace:
        if not isinstance(data, dict):
            return cls()
        quiet = data.get("quiet")
        return cls(
            mode=str(data["mode"]) if data.get("mode") in {LIVE, DAILY, OFF} else LIVE,
            standin=data.get("standin") if isinstance(data.get("standin"), bool) else None,
            quiet=(int(quiet[0]), int(quiet[1]))
            if isinstance(quiet, list | tuple) and len(quiet) == 2
            else None,
        )

    @property
    def chosen(self) -> bool:
        """Whether anything differs from the default (live, no quiet hours)."""
        return self != Pace()


def split_options(tokens: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    """The pace options among ``tokens`` (``tahti=päivä``…) as field -> typed value, and the other
    tokens (the game's own options)."""
    mine: dict[str, str] = {}
    rest: list[str] = []
    for token in tokens:
        key, eq, value = token.partition("=")
        field = _KEYS.get(fold(key.casefold())) if eq else None
        if field is None:
            rest.append(token)
        else:
            mine[field] = value
    return mine, rest


def apply_options(pace: Pace, typed: dict[str, str]) -> tuple[Pace, str | None]:
    """``pace`` changed by the typed options; raises ValueError for a value it cannot read. Returns
    also a time zone name when one was given (it belongs to the room)."""
    mode, standin, quiet, zone = pace.mode, pace.standin, pace.quiet, None
    for field, value in typed.items():
        word = fold(value.casefold().strip())
        if field == "mode":
            if word not in _MODES:
                raise ValueError(value)
            mode = _MODES[word]
        elif field == "standin":
            if word not in _YES | _NO:
                raise ValueError(value)
            standin = word in _YES
        elif field == "quiet":
            quiet = None if word in _NO else parse_quiet(word)
        else:
            zone = value.strip()
            if load_zone(zone) is None:
                raise ValueError(value)
    return Pace(mode, standin, quiet), zone


def parse_quiet(text: str) -> tuple[int, int]:
    """``22-8`` -> (1320, 480); ``22.30-7.15`` -> (1350, 435). Raises ValueError."""
    found = _QUIET.fullmatch(text.replace(" ", ""))
    if found is None:
        raise ValueError(text)
    h1, m1, h2, m2 = int(found[1]), int(found[2] or 0), int(found[3]), int(found[4] or 0)
    if not (0 <= h1 <= 24 and 0 <= h2 <= 24 and m1 < 60 and m2 < 60):
        raise ValueError(text)
    start, end = (h1 * 60 + m1) % 1440, (h2 * 60 + m2) % 1440
    if start == end:
        raise ValueError(text)
    return start, end


def load_zone(name: str | None) -> dt.tzinfo | None:
    if not name or len(name) > 64:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def zone_of(name: str | None) -> dt.tzinfo:
    """The zone named, else Helsinki's, else UTC (a system without a time zone database)."""
    return load_zone(name) or load_zone(DEFAULT_ZONE) or dt.UTC


def out_of_quiet(due: float, quiet: tuple[int, int] | None, zone: dt.tzinfo) -> float:
    """``due`` (epoch seconds), or the end of the quiet hours when it falls in them."""
    if quiet is None:
        return due
    start, end = quiet
    local = dt.datetime.fromtimestamp(due, zone)
    minute = local.hour * 60 + local.minute
    inside = start <= minute < end if start < end else (minute >= start or minute < end)
    if not inside:
        return due
    day = local.date()
    if start > end and minute >= start:
        day += dt.timedelta(days=1)  # the quiet hours run over midnight: they end tomorrow
    ends = dt.datetime.combine(day, dt.time(end // 60, end % 60), zone)
    return max(due, ends.timestamp())


def waits(pace: Pace, remind_after: float, act_after: float) -> tuple[float | None, float | None]:
    """Seconds until the reminder and until the stand-in move (None: none) for a person to act."""
    if pace.mode == OFF:
        return None, None
    if pace.mode == DAILY:
        remind, act = DAILY_REMIND, DAILY_ACT
    else:
        remind, act = remind_after, act_after
    return remind, act if pace.stands_in else None


def when_text(due: float, now: float, zone: dt.tzinfo, t: Translator) -> str:
    """When ``due`` is, for the table: "klo 14.30" today, "ti klo 14.30" on another day."""
    local = dt.datetime.fromtimestamp(due, zone)
    today = dt.datetime.fromtimestamp(now, zone).date()
    clock = format_time(local, "short", locale=t.locale)
    if local.date() == today:
        return t.gettext("at {time}").format(time=clock)
    day = format_date(local, "EEE", locale=t.locale)
    return t.gettext("{day} at {time}").format(day=day, time=clock)


def quiet_text(quiet: tuple[int, int]) -> str:
    return "–".join(f"{m // 60}.{m % 60:02d}" if m % 60 else f"{m // 60}" for m in quiet)


def describe(pace: Pace, t: Translator, remind_after: float, act_after: float) -> str | None:
    """The pace in force when it is not the default, for the lobby: "Tahti: päivä …"."""
    if not pace.chosen:
        return None
    if pace.mode == OFF:
        text = t.gettext("Pace: no reminders and no stand-in moves.")
    elif pace.mode == DAILY:
        text = (
            t.gettext("Pace: daily – a reminder after 12 hours; after 24 hours an AI player makes the move.")
            if pace.stands_in
            else t.gettext("Pace: daily – a reminder after 12 hours; the table waits for each move.")
        )
    else:
        remind = max(1, round(remind_after / 60))
        act = max(1, round(act_after / 60))
        text = (
            t.ngettext(
                "Pace: live – a reminder after {remind} minute; after {act} an AI player makes the move.",
                "Pace: live – a reminder after {remind} minutes; after {act} an AI player makes the move.",
                remind,
            ).format(remind=remind, act=act)
            if pace.stands_in
            else t.ngettext(
                "Pace: live – a reminder after {remind} minute; the table waits for each move.",
                "Pace: live – a reminder after {remind} minutes; the table waits for each move.",
                remind,
            ).format(remind=remind)
        )
    if pace.quiet and pace.mode != OFF:
        text += " " + t.gettext("Quiet hours {hours}.").format(hours=quiet_text(pace.quiet))
    return text
