"""Telegram transport (python-telegram-bot v22). See :mod:`.app` for the UX, :mod:`.delivery`
for how messages are edited, limited, retried and held, and :mod:`.serve` for polling and webhooks."""

from chatbot.runtime.limits import Limits, RateLimiter
from chatbot.transports.telegram.app import (
    PLATFORM,
    TelegramTransport,
    build_application,
    build_transport,
)
from chatbot.transports.telegram.serve import main

__all__ = [
    "PLATFORM",
    "Limits",
    "RateLimiter",
    "TelegramTransport",
    "build_application",
    "build_transport",
    "main",
]
