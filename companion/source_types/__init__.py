"""The box's own input source types (the camera, the smart dice) as :class:`companion.sources.SourceType`\\ s.

Apart from the registry (companion/sources/): these adapters read their options with the configuration's own
section readers, while the configuration asks the registry for the types it names; kept in one package, the two
would import each other.
"""
