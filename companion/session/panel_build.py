"""The panel as a pure function of the session's state: what the OLED and the projector's strip are told.

Kept apart from the session so the words a player reads are decided in one place, from values only:
the game run, the open request, the menu, the options, the sources and the footer line.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.dice import DiceRolled, Die, Prompt
from companion.dice_shuffle import DiceShuffle, dice_can_deal
from companion.games.base import NamesShuffledItems, Option
from companion.session.choices import cursor
from companion.session.game_run import GameRun
from companion.session.request import OpenRequest
from companion.views.panel import Menu, Panel


def asks_shuffle(prompt: Prompt) -> bool:
    """The engine asks for a shuffle (and no dice): ROLL makes it at once, thrown dice deal it card by card."""
    return bool(prompt.shuffle) and not prompt.dice


def deals_by_dice(prompt: Prompt) -> bool:
    """A shuffle the table may also deal with thrown dice: one whose deck a D8 and a D6 can pick from."""
    return asks_shuffle(prompt) and dice_can_deal(prompt.shuffle)


def deal_for(prompt: Prompt, request: OpenRequest) -> DiceShuffle:
    """The shuffle by dice under way, or a new one for ``prompt``."""
    return request.dealing or DiceShuffle.start(prompt.shuffle, prompt.deal)


def shown_prompt(run: GameRun, request: OpenRequest, wanted: tuple[str, ...]) -> Prompt:
    """The engine's prompt, or what the open request turns it into (a re-roll, a deal by dice)."""
    prompt = run.prompt()
    kinds = " + ".join(k.upper() for k in wanted)
    if request.reroll:
        last = run.last_roll()
        whole = tuple(d.kind for d in last.dice) if last is not None else wanted  # the dice a re-roll takes in all
        return Prompt(f"Re-roll {kinds}: the new roll replaces the last one", f"Re-roll {kinds}", dice=whole)
    if asks_shuffle(prompt) and (request.dealing is not None or request.partial):
        deal = deal_for(prompt, request)  # a shuffle being answered with dice: say which card, which dice
        card = f"card {deal.placed + 1} of {deal.deal}"
        return Prompt(f"{prompt.text}: by dice, {card}: throw {kinds} (ROLL shuffles at once)",
                      f"Card {deal.placed + 1}/{deal.deal}: {kinds}", dice=wanted, shuffle=prompt.shuffle,
                      deal=prompt.deal)
    return prompt


def kinds_words(kinds: Sequence[str]) -> str:
    """Dice as the table says them: "D8", "2D6", "D8 + D6"."""
    if len(kinds) > 1 and len(set(kinds)) == 1:
        return f"{len(kinds)}{kinds[0].upper()}"
    return " + ".join(k.upper() for k in kinds)


def request_words(run: GameRun, request: OpenRequest, prompt: Prompt, wanted: tuple[str, ...]) -> str:
    """The current request in the table's words, for the OLED's body: which dice, decision, shuffle or card
    pick, and for whom (the engine's short form names the tornado, the player, the deck)."""
    if prompt.done:
        return ""
    if request.reroll:
        last = run.last_roll()
        return f"Re-roll {kinds_words([d.kind for d in last.dice] if last else wanted)}: throw again"
    base = prompt.short or prompt.text
    if asks_shuffle(prompt):
        if request.dealing is not None or request.partial:
            deal = deal_for(prompt, request)
            return f"Card {deal.placed + 1} of {deal.deal}: throw {kinds_words(deal.need())}"
        return f"{base}: ROLL" if dice_can_deal(prompt.shuffle) else f"{base}: ROLL, the box shuffles"
    return base


def result_words(run: GameRun, request: OpenRequest, prompt: Prompt) -> tuple[str, ...]:
    """The last result, most telling line first: during a deal by dice the cards picked so far (by name when
    the engine names them), else the engine's recap of the last event (at the end, the final result)."""
    if asks_shuffle(prompt) and request.dealing is not None and request.dealing.placed:
        deal = request.dealing
        names: Sequence[str] = ()
        if isinstance(run.game, NamesShuffledItems):
            names = run.game.shuffled_items(run.state)
        picked = [names[i] if i < len(names) else "" for i in deal.order[:deal.placed]]
        if all(picked):
            return (f"Card {deal.placed}: {picked[-1]}", f"Dealt: {' '.join(picked)}")
        return (f"Card {deal.placed} of {deal.deal} picked",)
    return tuple(run.game.recap(run.state))


def shown_dice(run: GameRun, request: OpenRequest) -> tuple[tuple[Die, ...], tuple[bool, ...]]:
    """The dice on show: those of the request so far, else the last event's if it was a roll."""
    if request.partial:
        return request.partial, (request.reroll,) * len(request.partial)
    last = run.live[-1] if run.live else None
    if last is not None and isinstance(last.event, DiceRolled):
        return last.event.dice, (last.rerolled,) * len(last.event.dice)
    return (), ()


def build_panel(run: GameRun | None, request: OpenRequest, *, menu: Menu | None, options: Sequence[Option],
                wanted: tuple[str, ...], tower: str, sources: tuple[tuple[str, str], ...], message: str,
                notices: tuple[str, ...], listed: Sequence[int] = ()) -> Panel:
    """The panel for this moment. ``menu`` is an open menu (it hides the prompt); without one, a decision's
    options become the menu, the cursor on ``request.choice``; while a place's short list is open, only its
    options (``listed``, indexes into ``options``), so the OLED shows what the arrows step through."""
    if run is None:
        return Panel(tower=tower, sources=sources, message=message, menu=menu, notices=notices)
    prompt = shown_prompt(run, request, wanted)
    shown_menu = menu
    happened = ""
    if menu is None and not request.reroll and prompt.actions and options:
        recap = run.game.recap(run.state)
        happened = recap[0] if recap and request.choice is None else ""
        at = cursor(options, request.choice)
        if at in listed:
            shown_menu = Menu(prompt.short or prompt.text, tuple(options[i].label for i in listed), listed.index(at))
        else:
            shown_menu = Menu(prompt.short or prompt.text, tuple(o.label for o in options), at)
    dice, rerolled = shown_dice(run, request)
    engine_prompt = run.prompt()
    return Panel(
        game=run.game.title,
        status=run.game.status(run.state),
        prompt=None if menu is not None else prompt,
        dice=dice,
        rerolled=rerolled,
        result=tuple(run.game.recap(run.state)),
        tower=tower,
        sources=sources,
        message=message,
        menu=shown_menu,
        notices=notices,
        request="" if menu is not None else request_words(run, request, engine_prompt, wanted),
        arriving=bool(request.partial),
        last=result_words(run, request, engine_prompt),
        happened=happened,
    )
