"""The runtime under every transport: inbound -> core -> outbox -> transport, and the deadlines.

See :mod:`chatbot.runtime.driver` for the flow and :mod:`chatbot.runtime.limits` for rate limits.
"""

from chatbot.runtime.driver import Runtime, Settings, Stats, default_worker, run_until_signal
from chatbot.runtime.limits import OFF, Limits, RateLimiter, telegram_limits

__all__ = [
    "OFF",
    "Limits",
    "RateLimiter",
    "Runtime",
    "Settings",
    "Stats",
    "default_worker",
    "run_until_signal",
    "telegram_limits",
]
