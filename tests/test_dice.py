import pytest

from companion.dice import (
    Choice,
    DiceRolled,
    DiceSource,
    Die,
    Prompt,
    Shuffled,
    event_from_dict,
    event_to_dict,
    take_dice,
)
from companion.errors import CompanionError, RuleError


@pytest.mark.parametrize(("kind", "value"), [("d8", 9), ("d6", 0), ("d6", 7), ("d20", 3), ("d6", True)])
def test_impossible_dice_are_refused(kind, value):
    with pytest.raises(RuleError):
        Die(kind, value)


def test_take_dice_answers_in_request_order_and_drops_extras():
    event = DiceRolled.of(("d6", 2), ("d8", 5), ("d6", 4))
    assert take_dice(event, ["d8"]) == (Die("d8", 5),)
    assert take_dice(event, ["d6", "d6"]) == (Die("d6", 2), Die("d6", 4))


def test_take_dice_refuses_wrong_kind_with_a_message():
    with pytest.raises(RuleError, match="need D8, got D6=3"):
        take_dice(DiceRolled.of(("d6", 3)), ["d8"])
    with pytest.raises(RuleError, match="not a Choice"):
        take_dice(Choice("x"), ["d8"])


def test_events_round_trip_through_json_form():
    for event in [DiceRolled.of(("d8", 7), source="tower"), Shuffled((2, 0, 1)), Choice("forecast", {"line": "we"})]:
        assert event_from_dict(event_to_dict(event)) == event


@pytest.mark.parametrize("bad", [{"type": "dice", "dice": [["d8", 9]]}, {"type": "nope"}, {"dice": []},
                                 {"type": "shuffle", "order": [0, 0]}])
def test_malformed_events_are_one_line_errors(bad):
    with pytest.raises(CompanionError):
        event_from_dict(bad)


def test_seeded_source_is_reproducible_and_answers_prompts():
    a, b = DiceSource(7), DiceSource(7)
    prompt = Prompt("roll", dice=("d6", "d6"))
    assert a.answer(prompt) == b.answer(prompt)
    shuffle = a.answer(Prompt("shuffle", shuffle=5))
    assert sorted(shuffle.order) == [0, 1, 2, 3, 4]
    assert a.answer(Prompt("choose", actions=("forecast",))) is None
