"""``companion dice read IMAGE`` and ``companion dice teach``: the camera's reader on photographs.

``read`` prints each die's kind, face, confidence and box (or JSON), and with ``--out`` writes the picture
annotated; it never writes anything else. ``teach`` adds the faces shown on photographs to a taught set in the
state folder. Bad input (a missing or unreadable file, not a picture, no dice) is one line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO

import cv2
import numpy as np

from companion.errors import CompanionError
from hardware.camera import taught as taught_store
from hardware.camera.reader import annotate, read_dice
from hardware.camera.teach import TeachError, teach


def add_arguments(sub: argparse._SubParsersAction) -> None:
    read = sub.add_parser("read", help="read the plain dice on a photograph of the tray")
    read.add_argument("image", type=Path, metavar="IMAGE", help="a photograph (JPEG, PNG)")
    read.add_argument("--json", action="store_true", help='print {"dice": [{"kind", "face", "confidence", "box"}]}')
    read.add_argument("--out", type=Path, default=None, metavar="ANNOTATED.png", help="write the picture annotated")
    read.add_argument("--set", default="default", metavar="NAME", help="the taught dice set (default: default)")
    read.add_argument("--sets", type=Path, default=taught_store.DEFAULT_FOLDER, help=argparse.SUPPRESS)
    read.set_defaults(func=read_main)
    learn = sub.add_parser("teach", help="teach the camera a die's faces from photographs (one die each)")
    learn.add_argument("shown", nargs="+", metavar="FACE=IMAGE", help="e.g. 5=d8_five.jpg (the face shown up)")
    learn.add_argument("--kind", default="d8", choices=["d8"], help="the kind of die shown (default d8)")
    learn.add_argument("--set", default="default", metavar="NAME", help="the dice set taught (default: default)")
    learn.add_argument("--sets", type=Path, default=taught_store.DEFAULT_FOLDER, help=argparse.SUPPRESS)
    learn.set_defaults(func=teach_main)


def load_image(path: Path) -> np.ndarray:
    """The picture at ``path`` as BGR, or CompanionError saying what was wrong with it in one line."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CompanionError(f"{path}: cannot read ({exc.strerror or exc})") from None
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if image is None:
        raise CompanionError(f"{path}: not a picture (JPEG, PNG, BMP, WebP)")
    return image


def read_main(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    out = out or sys.stdout
    image = load_image(args.image)
    taught = taught_store.load(taught_store.check_name(args.set), args.sets)
    reads = read_dice(image, taught)
    if not reads:
        hint = "" if taught.templates("d8") else f" (a D8 is read once set {args.set!r} is taught: dice teach)"
        raise CompanionError(f"{args.image}: no dice found{hint}")
    if args.out is not None:
        ok, encoded = cv2.imencode(args.out.suffix or ".png", annotate(image, reads))
        if not ok:
            raise CompanionError(f"{args.out}: cannot write a picture of that type (use .png or .jpg)")
        try:
            args.out.write_bytes(encoded.tobytes())
        except OSError as exc:
            raise CompanionError(f"{args.out}: cannot write ({exc.strerror or exc})") from None
    if args.json:
        out.write(json.dumps({"dice": [r.to_json() for r in reads]}) + "\n")
        return 0
    for r in reads:
        x, y, w, h = r.box
        note = " crooked: throw again" if r.crooked else ("" if r.sure else " (would ask)")
        out.write(f"{r.kind.upper()} {r.face}  confidence {r.confidence:.2f}  at {x},{y} size {w}x{h}{note}\n")
    return 0


def teach_main(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    out = out or sys.stdout
    taught = taught_store.load(taught_store.check_name(args.set), args.sets)
    for item in args.shown:
        face_text, sep, file = item.partition("=")
        if not sep or not face_text.isdigit() or not 1 <= int(face_text) <= taught_store.KINDS[args.kind]:
            raise CompanionError(f"{item}: expected FACE=IMAGE with FACE 1-{taught_store.KINDS[args.kind]}")
        try:
            warnings = teach(load_image(Path(file)), args.kind, int(face_text), taught)
        except TeachError as exc:
            raise CompanionError(f"{file}: {exc}") from None
        for warning in warnings:
            out.write(f"{file}: {warning}\n")
    try:
        saved = taught_store.save(taught, args.sets)
    except OSError as exc:
        raise CompanionError(f"{args.sets}: cannot keep the taught set there ({exc.strerror or exc})") from None
    missing = taught.missing(args.kind)
    still = f"; still to show: {', '.join(map(str, missing))}" if missing else "; every face taught"
    out.write(f"taught {len(args.shown)} face(s) to set {args.set!r} ({saved}){still}\n")
    return 0
