"""Sub-commands of ``companion``; each module here registers one (see companion.cli)."""
