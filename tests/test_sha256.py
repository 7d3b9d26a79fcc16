"""The journal's SHA-256 is the standard one, and the box's start does not load OpenSSL for it."""

import subprocess
import sys

from companion.sha256 import sha256


def test_digests_are_the_published_sha256_answers():
    # FIPS 180-2, appendix B: the one-block and two-block messages
    assert sha256(b"abc").hexdigest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    two = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    assert sha256(two).hexdigest() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    running = sha256(b"ab")
    running.update(b"c")
    assert running.hexdigest() == sha256(b"abc").hexdigest()


def test_the_box_starts_without_openssl():
    """What `companion run` imports to resume a game: no hashlib (its OpenSSL is 3.4 MB of the box's memory)."""
    code = ("import sys, companion.cli, companion.sim, companion.journal, companion.session.game_run, "
            "companion.journal.version, companion.journal.engine_cache, companion.journal.salvage; "
            "print(sorted(m for m in ('hashlib', '_hashlib', 'ssl') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
