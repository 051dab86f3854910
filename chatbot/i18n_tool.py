"""Keep the Babel catalogs in step with the code: ``python -m chatbot.i18n_tool sync|check|apply``.

Catalogs are split by domain: ``core`` (core, transports, entry points) and one per game
(``chatbot/games/<game>*.py`` and ``chatbot/games/<game>/``). ``sync`` extracts every domain into
``locales/<domain>.pot`` and updates ``locales/{fi,en}/LC_MESSAGES/<domain>.po`` (English entries
are filled with their msgid); ``check`` fails when a Finnish entry is missing, empty or fuzzy or
when a catalog lags the code; ``untranslated [LANG]`` prints the empty entries as a JSON mapping
to fill; ``--domain NAME`` limits sync, apply and untranslated to one domain; ``apply LANG FILE.json`` fills translations from a JSON mapping
(``msgid`` or ``context\\u0004msgid`` -> string, or a list of plural forms).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "locales"
KEYWORDS = {
    "_": None,
    "gettext": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
LANGS = ("fi", "en")


def domains() -> dict[str, list[Path]]:
    """Domain name -> its source files."""
    games_dir = ROOT / "chatbot" / "games"
    out: dict[str, list[Path]] = {"core": []}
    for path in sorted((ROOT / "chatbot").rglob("*.py")):
        rel = path.relative_to(games_dir) if path.is_relative_to(games_dir) else None
        if rel is None or (rel.name in {"__init__.py", "base.py"} and len(rel.parts) == 1):
            out["core"].append(path)
            continue
        out.setdefault(_game_of(rel.parts[0].removesuffix(".py"), games_dir), []).append(path)
    return out


def _game_of(stem: str, games_dir: Path) -> str:
    """The game a module of ``chatbot/games`` belongs to: ``afrikan_tahti_cards`` -> ``afrikan_tahti``
    (the longest game module whose name starts the file's name)."""
    stems = {p.stem for p in games_dir.glob("*.py")} - {"__init__", "base"}
    for game in sorted(stems, key=len):  # the shortest matching name is the game itself
        if stem == game or stem.startswith(game + "_"):
            return game
    return stem


def _extract(files: list[Path]) -> Iterator[tuple[str, int, str | tuple[str, ...], list[str], str | None]]:
    for path in files:
        for lineno, message, comments, context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
        ):
            yield str(path.relative_to(ROOT)), lineno, message, comments, context


def template(domain: str, files: list[Path]) -> Catalog:
    cat = Catalog(project="pelipoyta", domain=domain, fuzzy=False)
    for filename, lineno, message, comments, context in _extract(files):
        cat.add(message, locations=[(filename, lineno)], auto_comments=comments, context=context)
    return cat


def _po_path(lang: str, domain: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{domain}.po"


def _read(path: Path, lang: str, domain: str) -> Catalog:
    if path.exists():
        with path.open("rb") as f:
            return read_po(f, locale=lang, domain=domain)
    return Catalog(locale=lang, domain=domain, project="pelipoyta", fuzzy=False)


def sync(only: str | None = None) -> None:
    LOCALES.mkdir(exist_ok=True)
    for domain, files in domains().items():
        if only and domain != only:
            continue
        tmpl = template(domain, files)
        if not len(tmpl):
            continue
        pot = LOCALES / f"{domain}.pot"
        if pot.exists():
            # a stable header: a sync that changes no message changes no file (and branches that
            # each ran sync do not conflict over a timestamp)
            with pot.open("rb") as f:
                tmpl.creation_date = read_po(f).creation_date
        with pot.open("wb") as f:
            write_po(f, tmpl, omit_header=False, sort_output=True, width=100, include_lineno=False)
        for lang in LANGS:
            path = _po_path(lang, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            cat = _read(path, lang, domain)
            cat.update(tmpl, no_fuzzy_matching=True)
            cat.obsolete.clear()
            cat.fuzzy = False
            if lang == "en":
                for m in cat:
                    if not m.id:
                        continue
                    if isinstance(m.id, tuple | list):
                        if not all(m.string or ()):
                            m.string = tuple(m.id)
                    elif not m.string:
                        m.string = m.id
            with path.open("wb") as f:
                write_po(
                    f,
                    cat,
                    omit_header=False,
                    sort_output=True,
                    width=100,
                    ignore_obsolete=True,
                    include_lineno=False,
                )


def problems() -> list[str]:
    """Everything that makes the catalogs incomplete or out of date."""
    found: list[str] = []
    for domain, files in domains().items():
        tmpl = template(domain, files)
        if not len(tmpl):
            continue
        for lang in LANGS:
            path = _po_path(lang, domain)
            if not path.exists():
                found.append(f"{path}: missing")
                continue
            cat = _read(path, lang, domain)
            for m in tmpl:
                if m.id and cat.get(m.id, m.context) is None:
                    found.append(f"{path}: not in catalog: {m.id!r}")
            for m in cat:
                if not m.id:
                    continue
                if m.fuzzy:
                    found.append(f"{path}: fuzzy: {m.id!r}")
                strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
                if not all(strings):
                    found.append(f"{path}: untranslated: {m.id!r}")
    return found + conflicts()


def conflicts() -> list[str]:
    """The same msgid translated differently in two domains: one translator merges every domain of a
    language, so such a pair would make one game show the other's words."""
    found: list[str] = []
    for lang in LANGS:
        seen: dict[tuple[str | None, str], tuple[str, object]] = {}
        for domain in domains():
            path = _po_path(lang, domain)
            if not path.exists():
                continue
            for m in _read(path, lang, domain):
                if not m.id:
                    continue
                key = (m.context, m.id[0] if isinstance(m.id, tuple | list) else m.id)
                string = tuple(m.string) if isinstance(m.string, tuple | list) else m.string
                if key in seen and seen[key][1] != string and string:
                    found.append(
                        f"{lang}: {key[1]!r} is {seen[key][1]!r} in {seen[key][0]} but {string!r} in {domain}"
                    )
                elif string:
                    seen.setdefault(key, (domain, string))
    return found


def apply(lang: str, mapping_file: str, only: str | None = None) -> int:
    mapping = json.loads(Path(mapping_file).read_text(encoding="utf-8"))
    done = 0
    for domain in domains():
        if only and domain != only:
            continue
        path = _po_path(lang, domain)
        if not path.exists():
            continue
        cat = _read(path, lang, domain)
        changed = False
        for m in cat:
            if not m.id:
                continue
            key_id = m.id[0] if isinstance(m.id, tuple | list) else m.id
            key = f"{m.context}\u0004{key_id}" if m.context else key_id
            if key in mapping:
                value = mapping[key]
                m.string = tuple(value) if isinstance(value, list) else value
                m.flags.discard("fuzzy")
                changed = True
                done += 1
        if changed:
            with path.open("wb") as f:
                write_po(
                    f,
                    cat,
                    omit_header=False,
                    sort_output=True,
                    width=100,
                    ignore_obsolete=True,
                    include_lineno=False,
                )
    return done


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    only = None
    if "--domain" in argv:
        i = argv.index("--domain")
        only = argv[i + 1]
        argv = argv[:i] + argv[i + 2 :]
    if command == "sync":
        sync(only)
        return 0
    if command == "apply":
        print(apply(argv[1], argv[2], only), "entries filled")
        return 0
    if command == "untranslated":
        lang = argv[1] if len(argv) > 1 else "fi"
        out = {}
        for domain in domains():
            path = _po_path(lang, domain)
            if path.exists() and (only is None or domain == only):
                for m in _read(path, lang, domain):
                    strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
                    if m.id and (not all(strings) or m.fuzzy):
                        key_id = m.id[0] if isinstance(m.id, tuple | list) else m.id
                        key = f"{m.context}\u0004{key_id}" if m.context else key_id
                        out[key] = list(m.id) if isinstance(m.id, tuple | list) else ""
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    issues = problems()
    for line in issues:
        print(line)
    return 1 if issues else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
