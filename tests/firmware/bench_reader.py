# The bench switch under MicroPython (WebAssembly port): board.READER = "random" invents a roll every
# 5 s of fake time; the keypad is not read. Prints one JSON line.
import json
import time

import fakes

fakes.install()
import board  # noqa: E402

board.READER = "random"
import main  # noqa: E402

time.set_ticks(time.PERIOD - 7000)  # wraps during the run
link = fakes.Link(step=100)
link.keep = 100
fw = main.Firmware(link)
fw.run(160)  # 16 s
rolls = sorted(set((f.seq, tuple(f.dice)) for f in link.frames if getattr(f, "kind", "") == "ROLL"))
print(json.dumps({"rolling": link.counts.get("ROLLING", 0), "rolls": rolls, "wraps": time.wraps(),
                  "reader": type(fw.reader).__name__}))
