"""The Telegram rate limits; the limiter itself lives in :mod:`chatbot.runtime.limits`."""

from chatbot.runtime.limits import OFF, Limits, RateLimiter, telegram_limits

__all__ = ["OFF", "Limits", "RateLimiter", "telegram_limits"]
