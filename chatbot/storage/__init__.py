"""SQLModel storage: every table in :mod:`chatbot.storage.tables`, the repository in
:mod:`chatbot.storage.repository`."""

from chatbot.storage.repository import SqlRepository, database_url

__all__ = ["SqlRepository", "database_url"]
