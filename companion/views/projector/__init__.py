"""The projector map: the board, the storm, the risk and the status, drawn with pygame.

Modules with one job each: ``layout`` (fit any resolution), ``palette`` (colour-blind-safe colours
and the risk ramp), ``board`` (the static board), ``overlay`` (risk heat-map and legend),
``status`` (the top strip), ``cursor``, ``chart`` (damage summary), per-game painters
(``stormfury``, ``kansas``), ``renderer`` (frame -> surface, redrawing only what changed) and
``view`` (the running box's screen).
"""

from companion.views.projector.layout import DEFAULT_SIZE, Layout
from companion.views.projector.renderer import ProjectorRenderer, render_frame
from companion.views.projector.view import ProjectorView, SurfaceImage, open_projector

__all__ = ["DEFAULT_SIZE", "Layout", "ProjectorRenderer", "ProjectorView", "SurfaceImage", "open_projector",
           "render_frame"]
