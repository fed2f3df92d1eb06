"""render_mode="human": a window through pygame (the optional extra ``pip install 'retrogym[human]'``)."""
import importlib.util
import os
import sys

import numpy as np

__all__ = ["SimpleImageViewer", "check_display", "render_modes"]


def render_modes():
    """The render modes that can work in this installation: "human" only where pygame is importable (found without
    importing it), so that Gymnasium's ``check_env``, which makes the environment in every declared mode, passes on
    a plain ``pip install retrogym``; "rgb_array" always."""
    try:
        human = importlib.util.find_spec("pygame") is not None
    except (ImportError, ValueError):
        human = False
    return ["human", "rgb_array"] if human else ["rgb_array"]


def _no_display_reason():
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return None  # asked for a headless SDL window on purpose
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    return None


def check_display():
    """Raises a clear error when a window cannot be shown: pygame missing, or no display."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame  # noqa: F401
    except ImportError:
        from gymnasium.error import DependencyNotInstalled

        raise DependencyNotInstalled(
            "render_mode='human' needs pygame: pip install 'retrogym[human]' (or use render_mode='rgb_array')"
        ) from None
    reason = _no_display_reason()
    if reason:
        raise RuntimeError(
            f"render_mode='human' needs a display: {reason}. Use render_mode='rgb_array' on a headless machine, "
            "or run under xvfb-run"
        )


class SimpleImageViewer:
    """A window showing RGB frames, scaled by an integer factor (nearest neighbour)."""

    def __init__(self, caption="retrogym", max_width=640):
        check_display()
        import pygame

        self._pg = pygame
        try:
            pygame.display.init()
        except pygame.error as e:
            raise RuntimeError(f"render_mode='human': cannot open a window ({e})") from None
        self.caption = caption
        self.max_width = max_width
        self.screen = None
        self.size = None
        self.isopen = True

    def imshow(self, img):
        pygame = self._pg
        if not self.isopen:
            return
        img = np.asarray(img, dtype=np.uint8)
        h, w = img.shape[:2]
        scale = max(1, self.max_width // max(w, 1))
        size = (w * scale, h * scale)
        if self.screen is None or self.size != size:
            try:
                self.screen = pygame.display.set_mode(size)
            except pygame.error as e:
                raise RuntimeError(f"render_mode='human': cannot open a window ({e})") from None
            pygame.display.set_caption(self.caption)
            self.size = size
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(img.swapaxes(0, 1)))
        if scale != 1:
            surface = pygame.transform.scale(surface, size)
        self.screen.blit(surface, (0, 0))
        pygame.display.flip()
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.close()

    def close(self):
        if self.isopen:
            self.isopen = False
            self._pg.display.quit()
