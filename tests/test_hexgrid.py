from hypothesis import given
from hypothesis import strategies as st

from companion.hexgrid import DIRECTION_NAMES, DIRECTIONS, Hex, hex_at_pixel, pixel_centre

coords = st.integers(-50, 50)


def test_directions_follow_the_design_notes():
    assert DIRECTIONS == {"N": (0, -1), "NE": (1, -1), "SE": (1, 0), "S": (0, 1), "SW": (-1, 1), "NW": (-1, 0)}


def test_north_is_straight_up_on_screen():
    x0, y0 = pixel_centre(Hex(0, 0), 10)
    x1, y1 = pixel_centre(Hex(0, 0).neighbour("N"), 10)
    assert x1 == x0 and y1 < y0
    xe, ye = pixel_centre(Hex(0, 0).neighbour("NE"), 10)
    assert xe > x0 and ye < y0


@given(coords, coords)
def test_every_neighbour_is_at_distance_one_and_opposites_cancel(q, r):
    h = Hex(q, r)
    assert all(h.distance(n) == 1 for n in h.neighbours())
    assert h.neighbour("N").neighbour("S") == h
    assert h.neighbour("NE").neighbour("SW") == h
    assert h.neighbour("SE").neighbour("NW") == h


@given(coords, coords, st.integers(0, 4))
def test_within_is_the_filled_hexagon(q, r, radius):
    area = list(Hex(q, r).within(radius))
    assert len(area) == len(set(area)) == 1 + 3 * radius * (radius + 1)
    assert all(Hex(q, r).distance(h) <= radius for h in area)


@given(coords, coords)
def test_pixel_round_trip(q, r):
    x, y = pixel_centre(Hex(q, r), 17.0)
    assert hex_at_pixel(x + 3, y - 2, 17.0) == Hex(q, r)


def test_direction_names_order_is_clockwise_from_north():
    assert DIRECTION_NAMES == ("N", "NE", "SE", "S", "SW", "NW")
