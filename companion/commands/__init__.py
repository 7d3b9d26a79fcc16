"""Sub-commands of ``companion``; each module here registers one (see companion.cli)."""

STARTS_QUIETLY = "starts_quietly"
"""A command whose parser sets this default (``companion run``) gets the cyclic garbage collector still held
off, and turns it back on itself once started (at READY). Every other command gets it back once its modules
are imported and its arguments parsed. Importing a command and building the box's parts makes some forty
thousand objects that live as long as the process and almost no garbage, yet the collector ran about sixty
times over them during a start; turned back on half way, its first passes walk all of them at once and cost
as much again."""
