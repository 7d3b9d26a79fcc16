"""The risk overlay toggle: RIGHT held on the box, O on the laptop window; the cursor stays put."""

from __future__ import annotations

import queue

import pytest

from companion.journal import Journal
from companion.session import Hold, Press, Session


@pytest.fixture
def session(tmp_path, maps_dir):
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, maps=maps_dir)
        s.start("stormfury")
        s.handle(Press("ROLL"))  # the forecast shuffle: now the player phase offers options
        yield s


def test_right_held_toggles_the_overlay_and_a_press_moves_the_cursor(session):
    """A held button sends only its Hold (hardware.buttons), so the hold changes nothing but the overlay."""
    assert session.frame.panel.menu is not None and not session.frame.overlay
    before = session.frame.panel.menu.selected
    session.handle(Press("RIGHT"))  # a short press moves the cursor
    moved = session.frame.panel.menu.selected
    assert moved != before and session.frame.cursor == session.options()[moved].place
    assert session.handle(Hold("RIGHT"))
    assert session.frame.overlay is True
    assert session.frame.panel.menu.selected == moved
    session.handle(Hold("RIGHT"))
    assert session.frame.overlay is False


def test_right_held_in_a_menu_keeps_the_selection(session):
    session.handle(Press("BACK"))  # the main menu
    menu = session.frame.panel.menu
    session.handle(Hold("RIGHT"))
    assert session.frame.panel.menu.selected == menu.selected
    assert session.frame.overlay is True


def test_o_key_in_the_window_queues_the_overlay_press(tmp_path):
    import pygame

    from companion.session.window import OledWindow
    from companion.views.projector import ProjectorRenderer

    inbox: queue.Queue = queue.Queue()
    window = OledWindow(inbox, None, lambda: None, projector=ProjectorRenderer((320, 180)))
    try:
        assert window.surface.get_size() == (320 + 128 * 3, 192)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_o, mod=0, unicode="o", scancode=0))
        window.pump()
        assert inbox.get(timeout=1) == Press("OVERLAY")
    finally:
        window.close()


def test_holding_the_right_button_pin_on_the_box_toggles_the_overlay(tmp_path):
    """The real Buttons on gpiozero's mock pins: RIGHT is one of the held buttons on the box."""
    import time

    from companion.sim import build_table, sim_config

    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(headless=True)) as table:
        table.session.start("stormfury")
        table.inbox.put(Press("ROLL"))
        table.loop.step(timeout=2)
        selected = table.session.frame.panel.menu.selected
        keys = table.parts["keys"]
        keys.press("RIGHT")
        try:
            deadline = time.monotonic() + 6
            while not table.session.frame.overlay and time.monotonic() < deadline:
                table.loop.step(timeout=0.2)  # waits on the queue: the buttons' hold timer fills it
        finally:
            keys.release("RIGHT")
        table.loop.step(timeout=0.2)
        assert table.session.frame.overlay is True
        assert table.session.frame.panel.menu.selected == selected
