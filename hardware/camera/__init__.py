"""The camera over the tray: reads plain dice (a D6 by its pips, a D8 by its taught numeral) from pictures.

``reader.read_dice`` is the pure reader (a picture in, dice out); ``source`` watches a capture and emits rolls.
"""
