import json
import sys

try:
    import machine  # noqa: F401
    has_machine = True
except ImportError:
    has_machine = False
print(json.dumps({"implementation": sys.implementation.name, "machine_module": has_machine}))
