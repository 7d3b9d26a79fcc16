"""The box's own input sources' start adapters (the camera, the smart dice) over their parts in ``hardware/``.

Their types are declared in companion.config beside the sections whose options they take (``[camera]``,
``[dice]``), and handed to the registry there: these modules import only the registry, so nothing here, in the
registry or in the configuration imports in a circle, by name or otherwise.
"""
