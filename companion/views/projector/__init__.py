"""The projector map: the board, the storm, the risk and the status, drawn with pygame.

Modules with one job each: ``layout`` (regions, the board fitted at any resolution), ``shapes``
(hex, square-grid and graph geometry behind one interface: centre, outline, fit), ``palette``
(colour-blind-safe colours and the risk ramp), ``symbols``/``marks``/``key`` (a symbol per kind, drawing
it, the key naming it), ``board`` (the static board of any shape), ``overlay`` (risk heat on any place
and its legend), ``status`` (the top strip), ``cursor``, ``chart`` (damage summary), ``painters``
(what a painter is; the shared ones: a game's own painter is ``companion/games/<game>/painter.py``),
``renderer`` (frame -> surface, redrawing only what changed) and ``view`` (the running box's screen).
"""

from companion.views.projector.layout import DEFAULT_SIZE, Layout
from companion.views.projector.outputs import open_projector
from companion.views.projector.renderer import ProjectorRenderer, render_frame
from companion.views.projector.view import ProjectorView, SurfaceImage

__all__ = ["DEFAULT_SIZE", "Layout", "ProjectorRenderer", "ProjectorView", "SurfaceImage", "open_projector",
           "render_frame"]
