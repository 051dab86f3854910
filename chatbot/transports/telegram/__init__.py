"""Telegram transport (python-telegram-bot v22). See :mod:`.app` for the UX and :mod:`.delivery`
for how messages are edited, limited, retried and held."""

from chatbot.transports.telegram.app import (
    PLATFORM,
    TelegramTransport,
    build_application,
    build_transport,
    main,
)
from chatbot.transports.telegram.limiter import Limits, RateLimiter

__all__ = [
    "PLATFORM",
    "Limits",
    "RateLimiter",
    "TelegramTransport",
    "build_application",
    "build_transport",
    "main",
]
