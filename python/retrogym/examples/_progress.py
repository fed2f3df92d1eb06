"""A small progress bar for the examples (no dependency): one line on stderr, redrawn in place on a terminal.

On a terminal the bar is redrawn at most ten times a second; anywhere else (a log file, a pipe, CI) it writes a
plain line at every tenth of the way instead of filling the log with carriage returns. ``write(text)`` prints a
line to stdout without tearing the bar (the bar is cleared, the line printed, the bar drawn again).
"""
import sys
import time

__all__ = ["Progress", "format_duration"]


def format_duration(seconds):
    """'42s', '3m05s', '1h02m'."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Progress:
    """``Progress(total, desc)``; ``update(n=1, **fields)`` advances it and shows the fields after the bar;
    ``write(text)`` prints a line to stdout; ``close()`` ends the bar's line. Usable as a context manager.
    ``enabled=False`` draws nothing (``write`` still prints)."""

    def __init__(self, total, desc="", stream=None, width=28, enabled=True, out=None, min_interval=0.1):
        self.total = max(0, int(total))
        self.desc = desc
        self.stream = sys.stderr if stream is None else stream
        self.out = sys.stdout if out is None else out
        self.width = width
        self.enabled = enabled
        self.n = 0
        self.fields = {}
        self.start = time.monotonic()
        self.min_interval = min_interval
        self._last_draw = 0.0
        self._shown = False  # a bar is on the terminal's current line
        self._next_tenth = 1  # non-terminal mode: the next tenth of the way to report
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty and isatty())
        self._closed = False
        if self.enabled and self.tty:
            self._draw()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def line(self):
        """The bar as text: 'desc  43%|#########      | 130/300 [0m12s<0m16s, best=250, ret=120]'."""
        elapsed = time.monotonic() - self.start
        frac = self.n / self.total if self.total else 1.0
        frac = min(1.0, max(0.0, frac))
        filled = int(frac * self.width)
        partial = ""
        if filled < self.width:
            partial = " .:-=+*#"[int((frac * self.width - filled) * 8)] if frac > 0 else " "
        bar = "#" * filled + partial + " " * (self.width - filled - len(partial))
        if 0 < self.n < self.total:
            eta = "<" + format_duration(elapsed / self.n * (self.total - self.n))
        else:
            eta = ""
        fields = ", ".join(f"{k}={v}" for k, v in self.fields.items())
        tail = f"[{format_duration(elapsed)}{eta}" + (f", {fields}]" if fields else "]")
        head = f"{self.desc} " if self.desc else ""
        return f"{head}{frac * 100:3.0f}%|{bar}| {self.n}/{self.total} {tail}"

    def _draw(self):
        self.stream.write("\r" + self.line() + "\x1b[K")
        self.stream.flush()
        self._shown = True
        self._last_draw = time.monotonic()

    def _clear(self):
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False

    def update(self, n=1, **fields):
        self.n += n
        self.fields.update(fields)
        if not self.enabled or self._closed:
            return
        if self.tty:
            if self.n >= self.total or time.monotonic() - self._last_draw >= self.min_interval:
                self._draw()
        elif self.total and self.n * 10 >= self._next_tenth * self.total:
            while self.n * 10 >= self._next_tenth * self.total:
                self._next_tenth += 1
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def write(self, text):
        """Prints a line (to stdout) above the bar."""
        if self.enabled and self.tty:
            self._clear()
        self.out.write(text + "\n")
        self.out.flush()
        if self.enabled and self.tty and not self._closed:
            self._draw()

    def close(self):
        if self._closed:
            return
        self._closed = True
        if self.enabled and self.tty:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
