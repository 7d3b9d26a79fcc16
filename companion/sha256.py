"""SHA-256 for the journal's digests, from CPython's own implementation rather than OpenSSL's.

``hashlib`` loads OpenSSL's libcrypto the moment it is imported, and its pages cost the box about 3.4 MB of
resident memory (measured with the long-game benchmark's smaps reading), on a box whose whole budget is 80 MB,
for a handful of digests a start (the rules' version tag, the boards' and snapshots' checksums). CPython ships
SHA-256 of its own (``_sha256``; ``_sha2`` from 3.12 on): same digests, no library mapped. Where neither exists
(another Python build), hashlib's is used: only the memory differs, never a digest.
"""

from __future__ import annotations

import sys

try:
    if sys.version_info >= (3, 12):
        from _sha2 import sha256
    else:
        from _sha256 import sha256
except ImportError:  # a Python built without its own hashes
    from hashlib import sha256

__all__ = ["sha256"]
