"""A shuffle made from thrown dice: the throw each pick takes, every deal equally likely (checked by
enumerating every throw), uneven throws thrown again, and only the positions the rules use dealt."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.dice import FACES, Die, Shuffled
from companion.dice_shuffle import DiceShuffle, throw_for
from companion.errors import CompanionError


def throws(kinds: tuple[str, ...]):
    """Every throw of ``kinds``, as dice."""
    for faces in itertools.product(*(range(1, FACES[k] + 1) for k in kinds)):
        yield tuple(Die(k, v) for k, v in zip(kinds, faces, strict=True))


def test_each_pick_takes_the_smallest_throw_with_enough_faces():
    assert throw_for(2) == throw_for(6) == ("d6",)
    assert throw_for(7) == throw_for(8) == ("d8",)
    assert throw_for(9) == throw_for(27) == throw_for(48) == ("d8", "d6")
    with pytest.raises(CompanionError, match="too large"):
        throw_for(49)


@pytest.mark.parametrize("cards", range(2, 49))
def test_one_pick_is_even_over_every_throw(cards):
    deal = DiceShuffle.start(cards, 1)
    picked: Counter[int] = Counter()
    again = 0
    for dice in throws(deal.need()):
        after = deal.feed(dice)
        if after.placed == 0:
            again += 1
            assert after.thrown_again == 1
        else:
            picked[after.order[0]] += 1
    assert set(picked) == set(range(cards))
    assert len(set(picked.values())) == 1  # every card exactly as often
    assert again < cards  # fewer throws wasted than one per card


def test_every_order_of_a_small_deck_is_equally_likely():
    deck = DiceShuffle.start(4)  # 3 picks: the last card needs no throw
    assert deck.deal == 3
    seen: Counter[tuple[int, ...]] = Counter()
    for first, second, third in itertools.product(throws(("d6",)), repeat=3):
        state = deck
        for dice in (first, second, third):
            state = state.feed(dice)
        if state.done:  # the sequences with no throw to do again
            seen[state.result().order] += 1
    assert len(seen) == 24 and len(set(seen.values())) == 1


def test_a_throw_that_would_favour_some_cards_is_thrown_again():
    deal = DiceShuffle.start(5, 3)
    again = deal.feed((Die("d6", 6),))  # 5 cards: a 6 cannot be read evenly
    assert again.placed == 0 and again.thrown_again == 1 and again.need() == ("d6",)
    picked = again.feed((Die("d6", 2),))
    assert picked.placed == 1 and picked.order[0] == 1


def test_only_the_cards_the_rules_use_are_dealt():
    deal = DiceShuffle.start(15, 5)  # a forecast: 5 of the deck
    assert deal.need() == ("d8", "d6")
    for _ in range(5):
        deal = deal.feed((Die("d8", 1), Die("d6", 1)))  # always the first card still in the deck
    assert deal.done and deal.need() == ()
    result = deal.result()
    assert isinstance(result, Shuffled) and result.source == "dice"
    assert result.order == tuple(range(15))
    with pytest.raises(CompanionError, match="complete"):
        deal.feed((Die("d6", 1),))


def test_wrong_dice_and_an_unfinished_deal_are_refused_in_words():
    deal = DiceShuffle.start(15, 5)
    with pytest.raises(CompanionError, match="D8 \\+ D6"):
        deal.feed((Die("d6", 3),))
    with pytest.raises(CompanionError, match="5 more throws"):
        deal.result()
    with pytest.raises(CompanionError, match="nothing to shuffle"):
        DiceShuffle.start(0)


@given(st.integers(1, 48), st.integers(0, 10), st.data())
def test_any_throws_give_a_permutation(size, deal, data):
    state = DiceShuffle.start(size, deal)
    while not state.done:
        kinds = state.need()
        state = state.feed(tuple(Die(k, data.draw(st.integers(1, FACES[k]))) for k in kinds))
    order = state.result().order
    assert sorted(order) == list(range(size))
