"""Fonts shipped with the package: Spleen, a pixel font drawn for small screens (BSD-2-clause, see
LICENSE-spleen.txt)."""
