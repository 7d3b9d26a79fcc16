"""The join code and the phones' session tokens.

A phone that enters the code the box shows gets a token (a cookie) and a CSRF token (kept by the page);
every later request must carry both. A new code (the box's "Phones" menu, or a new game) revokes every
token at once. Codes avoid letters and digits that read alike on a small screen (0/O, 1/I, 2/Z, 5/S, 8/B).
The code and the tokens come from :mod:`secrets`; comparisons are constant-time.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass

ALPHABET = "ACDEFHJKLMNPQRTUVWXY34679"
CODE_LENGTH = 6
MAX_PHONES = 32
"""Tokens alive at once: a table has a few phones; a 33rd join drops the oldest token."""
SEATS = ("Blue", "Red", "Green", "Yellow", "Black", "White")
"""The seats a phone may take (seat N makes the decisions of the game's player N); no seat is allowed too."""


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


@dataclass(frozen=True)
class Phone:
    """One joined phone: its cookie token, its CSRF token, its number and seat ("" when it took none)."""

    token: str
    csrf: str
    number: int
    seat: str = ""

    @property
    def name(self) -> str:
        """How the box names it: "Blue's phone", or "phone 3" without a seat."""
        return f"{self.seat}'s phone" if self.seat else f"phone {self.number}"

    @property
    def player(self) -> int | None:
        """The game's player number this phone decides for (1-based), None without a seat."""
        return SEATS.index(self.seat) + 1 if self.seat in SEATS else None


class Joining:
    """The current code and the tokens given for it. Used from the box's loop (a new code) and the web
    server's thread (joins, checks), so every change holds one lock."""

    def __init__(self, code: Callable[[], str] = new_code) -> None:
        self._make = code
        self._lock = threading.Lock()
        self.code = code()
        self.generation = 0
        """Counts new codes: what a publisher compares to know the tokens were revoked."""
        self._phones: dict[str, Phone] = {}
        self._numbers = 0
        self.on_revoke: Callable[[], None] | None = None

    def renew(self) -> str:
        """A new code; every token given before is revoked (the server then closes their connections)."""
        with self._lock:
            self.code = self._make()
            self.generation += 1
            self._phones.clear()
        if self.on_revoke is not None:
            self.on_revoke()
        return self.code

    def join(self, code: str, seat: str = "") -> Phone | None:
        """A new phone's tokens for the right code, else None (the caller counts the attempt)."""
        if seat and seat not in SEATS:
            return None
        with self._lock:
            if not hmac.compare_digest(code.strip().upper().encode(), self.code.encode()):
                return None
            self._numbers += 1
            phone = Phone(secrets.token_urlsafe(32), secrets.token_urlsafe(24), self._numbers, seat)
            self._phones[phone.token] = phone
            while len(self._phones) > MAX_PHONES:
                del self._phones[next(iter(self._phones))]
            return phone

    def phone(self, token: str | None) -> Phone | None:
        """The phone holding ``token``, if it is still valid."""
        if not token:
            return None
        with self._lock:
            for known, phone in self._phones.items():
                if hmac.compare_digest(known.encode(), token.encode()):
                    return phone
        return None

    def count(self) -> int:
        with self._lock:
            return len(self._phones)
