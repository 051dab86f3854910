"""The Afrikan Tähti board data (``engines/afrikan_tahti/data/map.json``) against an independent
listing of the board: every land route with its step count, every sea leg with its length, every
air route (spec §2: 32 places, 188 dots, 147 land edges, 96 sea edges, 23 sea legs, 23 air routes).

The tables below were written from a second source of the board (the map of another open-source
implementation, which counts routes between places and crossroads), not from ``map.json``, so a
slip in either shows up here. Crossroads are named by the places they join: J0 Tangier-Morocco-
Sahara, J1 Sierra Leone-Timbuktu-Gold Coast, J2 Slave Coast-Dar-Fur-Ain-Galaka-Kandjama,
J3 Lake Victoria-Daressalam-Mozambique, J4 Congo-Mozambique, J5 Victoria Falls-Dragon Mountain.
"""

from __future__ import annotations

from collections import deque

import pytest

from engines.afrikan_tahti.board import AIR, HAZARDS, LAND, LEGS, MAP, PLACE, PLACES, POINT, POINTS, SEA_DOTS

J = {
    "J0": "j_land_tangier_morocco_sahara",
    "J1": "j_land_sierraleone_timbuktu_goldcoast",
    "J2": "j_land_slavecoast_darfur_aingalaka_kandjama",
    "J3": "j_land_lakevictoria_daressalam_mozambique",
    "J4": "j_land_congo_mozambique",
    "J5": "j_land_victoriafalls_dragonmountain",
}

LAND_ROUTES = """
addis_abeba cape_guardafui 3 | addis_abeba lake_victoria 3 | addis_abeba suakin 3 | ain_galaka dar_fur 4
ain_galaka J2 4 | bahr_el_ghasal dar_fur 2 | bahr_el_ghasal lake_victoria 2 | congo kandjama 3
congo ocomba 4 | congo J4 8 | daressalam cape_guardafui 6 | daressalam J3 1 | dar_fur egypt 3
dar_fur sahara 8 | dar_fur suakin 4 | dar_fur J2 4 | dragon_mountain victoria_falls 3
dragon_mountain J5 2 | egypt tripoli 6 | egypt cairo 4 | gold_coast J1 2 | kandjama J2 2
lake_victoria ocomba 4 | lake_victoria J3 4 | morocco cape_verde 8 | morocco J0 1 | mozambique J3 2
mozambique J4 2 | sahara J0 4 | sierra_leone cape_verde 4 | sierra_leone J1 3 | slave_coast timbuktu 5
slave_coast J2 3 | cape_st_marie tamatave 4 | timbuktu J1 2 | capetown whalefish_bay 4 | tripoli tunis 3
tunis tangier 5 | victoria_falls whalefish_bay 4 | victoria_falls J5 2 | tangier J0 1 | J4 J5 1
"""

# port, port, steps (legs through a sea crossroads counted through it)
SEA_LEGS = """
canary_islands cape_verde 5 | canary_islands tangier 3 | congo whalefish_bay 5 | congo gold_coast 7
congo slave_coast 5 | gold_coast sierra_leone 5 | gold_coast slave_coast 4 | cape_guardafui mozambique 8
cape_guardafui suakin 5 | cape_guardafui tamatave 8 | mozambique cape_st_marie 3 | sierra_leone cape_verde 3
sierra_leone st_helena 11 | cape_verde st_helena 10 | st_helena capetown 10 | st_helena whalefish_bay 11
capetown whalefish_bay 5 | cape_st_marie capetown 8 | suakin cairo 4 | tripoli tunis 3 | tripoli cairo 4
tunis cairo 5 | tunis tangier 3
"""

AIR_ROUTES = """
congo gold_coast | congo whalefish_bay | dar_fur ocomba | dar_fur suakin | dar_fur tripoli
dragon_mountain lake_victoria | dragon_mountain capetown | gold_coast morocco | gold_coast tripoli
gold_coast whalefish_bay | cape_guardafui lake_victoria | cape_guardafui tamatave | lake_victoria suakin
morocco sierra_leone | morocco tangier | ocomba capetown | sierra_leone st_helena | st_helena capetown
cape_st_marie capetown | suakin cairo | tamatave capetown | capetown whalefish_bay | tripoli tangier
"""


def _rows(table: str) -> list[list[str]]:
    return [
        [J.get(w, w) for w in row.split()] for line in table.strip().splitlines() for row in line.split("|")
    ]


def _land_steps(a: str, b: str) -> int | None:
    """Steps from ``a`` to ``b`` over land dots only (no place or crossroads in between)."""
    ends = set(PLACES) | set(J.values())
    todo = deque([(a, 0)])
    seen = {a}
    while todo:
        node, d = todo.popleft()
        for nxt in LAND.get(node, ()):
            if nxt == b:
                return d + 1
            if nxt not in seen and nxt not in ends:
                seen.add(nxt)
                todo.append((nxt, d + 1))
    return None


def test_counts_of_the_spec():
    assert len(PLACES) == 32 and len(POINTS) == 188
    assert sum(1 for p in MAP["points"] if p["kind"] == "land") == 111 and len(SEA_DOTS) == 77
    assert sum(1 for p in MAP["points"] if p["junction"]) == 10 and len(HAZARDS) == 3
    assert len(MAP["land_edges"]) == 147 and len(MAP["sea_edges"]) == 96
    assert len(MAP["sea_legs"]) == 23 and len(MAP["air_routes"]) == 23


@pytest.mark.parametrize(("a", "b", "steps"), [(r[0], r[1], int(r[2])) for r in _rows(LAND_ROUTES)])
def test_every_land_route_and_its_steps(a, b, steps):
    assert _land_steps(a, b) == steps
    assert _land_steps(b, a) == steps


def test_no_land_route_beyond_the_listing():
    listed = {frozenset(r[:2]) for r in _rows(LAND_ROUTES)}
    ends = set(PLACES) | set(J.values())
    found = {frozenset((a, b)) for a in ends for b in ends if a < b and _land_steps(a, b) is not None}
    assert found == listed


@pytest.mark.parametrize(("a", "b", "steps"), [(r[0], r[1], int(r[2])) for r in _rows(SEA_LEGS)])
def test_every_sea_leg_and_its_length(a, b, steps):
    leg = LEGS[(a, b)]
    assert leg.steps == steps and LEGS[(b, a)].steps == steps
    assert leg.fare == 100
    assert all(n in SEA_DOTS for n in leg.path[1:-1])
    assert all(PLACE[p]["port"] for p in (a, b))


def test_no_sea_leg_beyond_the_listing():
    assert {frozenset(k) for k in LEGS} == {frozenset(r[:2]) for r in _rows(SEA_LEGS)}


def test_every_air_route_and_no_other():
    listed = {frozenset(r) for r in _rows(AIR_ROUTES)}
    assert len(listed) == 23
    assert {frozenset(k) for k in AIR} == listed
    assert set(AIR.values()) == {300}
    assert all(PLACE[p]["airport"] for pair in listed for p in pair)


def test_hazards_where_the_spec_puts_them():
    # bedouins: the 2nd dot from Sahara on the Sahara-Dar-Fur road; pirates: next to St. Helena
    bedouins = next(n for n, kind in HAZARDS.items() if kind == "bedouins")
    assert _land_steps("sahara", bedouins) == 2 and _land_steps(bedouins, "dar_fur") == 6
    pirates = [n for n, kind in HAZARDS.items() if kind == "pirates"]
    assert len(pirates) == 2
    for dot in pirates:
        assert any(leg.path[1] == dot for (origin, _dest), leg in LEGS.items() if origin == "st_helena")


def test_the_board_is_connected_by_land_sea_and_air():
    edges: dict[str, set[str]] = {n: set(m) for n, m in LAND.items()}
    for leg in LEGS.values():
        for a, b in zip(leg.path, leg.path[1:]):
            edges.setdefault(a, set()).add(b)
    for a, b in AIR:
        edges.setdefault(a, set()).add(b)
    seen, todo = {"cairo"}, ["cairo"]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert seen == set(PLACES) | set(POINTS)


def test_islands_have_no_land_routes_and_madagascar_only_its_own():
    assert "canary_islands" not in LAND and "st_helena" not in LAND
    seen, todo = {"tamatave"}, ["tamatave"]
    while todo:
        for nxt in LAND.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert {n for n in seen if n in PLACE} == {"tamatave", "cape_st_marie"}
    assert _land_steps("tamatave", "cape_st_marie") == 4


def test_pixel_coordinates_for_every_node_inside_the_board():
    width, height = MAP["board"]["image_width"], MAP["board"]["image_height"]
    for node in (*PLACES, *POINTS):
        data = PLACE.get(node) or POINT[node]
        assert isinstance(data["x"], int) and isinstance(data["y"], int), node
        assert 0 <= data["x"] < width and 0 <= data["y"] < height, node
    # no two places on the same spot, and every place has both names for the texts
    assert len({(PLACE[p]["x"], PLACE[p]["y"]) for p in PLACES}) == len(PLACES)
    assert all(PLACE[p]["name_fi"] and PLACE[p]["name_en"] for p in PLACES)
