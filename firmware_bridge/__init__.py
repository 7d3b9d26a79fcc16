"""The dice tower: wire protocol, tower-side logic, the host link on pyserial, a virtual tower.

``wire`` and ``tower`` are plain Python that also runs under MicroPython on the tower itself
(see ``firmware/``); ``link`` and ``virtual`` are the host side.
"""
