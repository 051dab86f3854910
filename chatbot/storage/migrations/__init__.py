"""Alembic migrations of the tables in :mod:`chatbot.storage.tables`, from the first schema on.

The repository runs them at start-up (:func:`chatbot.storage.repository.upgrade`); nothing needs
``alembic.ini``. After a change to the tables, from the repository root, against a database at the
newest revision (``DATABASE_URL``, else ``data/pelipoyta.sqlite``)::

    .venv/bin/alembic revision --autogenerate -m "what changed"

(``[tool.alembic]`` in pyproject.toml points the command here), then read the new file in
``versions/`` and correct it by hand where autogenerate guessed. tests/storage/test_migrations.py
fails while the tables and the migrations differ.
"""
