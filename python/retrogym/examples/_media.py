"""Media for the examples: the best episode as an animated GIF (Pillow) or an MP4 (the ``ffmpeg`` program), the
return curve as a PNG plot drawn with Pillow's ImageDraw (no matplotlib), and the same curve as text for a
terminal.

Pillow is the one dependency (``pip install pillow``; ``make venv`` installs it); ``have_pillow()`` tells whether it
is there, and the examples skip their pictures with a message when it is not.
"""
import math
import os
import shutil
import subprocess

import numpy as np

__all__ = [
    "have_pillow",
    "have_ffmpeg",
    "write_video",
    "write_gif",
    "write_mp4",
    "plot_curves",
    "text_chart",
]


def have_pillow():
    try:
        import PIL.Image  # noqa: F401
    except ImportError:
        return False
    return True


def have_ffmpeg():
    return shutil.which("ffmpeg") is not None


def _check_frames(frames):
    frames = [np.asarray(f) for f in frames]
    if not frames:
        raise ValueError("no frames to write")
    shape = frames[0].shape
    if len(shape) != 3 or shape[2] != 3:
        raise ValueError(f"frames must be (height, width, 3) RGB arrays, not {shape}")
    for f in frames:
        if f.shape != shape:
            raise ValueError("all frames must have the same shape")
    return [np.ascontiguousarray(f, dtype=np.uint8) for f in frames]


def _upscale(frame, scale):
    if scale == 1:
        return frame
    return frame.repeat(scale, axis=0).repeat(scale, axis=1)


def write_gif(path, frames, fps=15.0, scale=1):
    """Writes RGB frames as a looping GIF. Console frames have few colours: when all frames together use at most
    256, they share one exact palette (no dithering, nothing lost) and Pillow stores only the changed part of
    each frame; otherwise every frame is quantized on its own. Returns the path."""
    from PIL import Image

    frames = _check_frames(frames)
    packed = [(f[..., 0].astype(np.uint32) << 16) | (f[..., 1].astype(np.uint32) << 8) | f[..., 2] for f in frames]
    colours = np.unique(np.concatenate([np.unique(p) for p in packed]))
    images = []
    if len(colours) <= 256:
        palette = np.zeros((256, 3), np.uint8)
        palette[: len(colours), 0] = colours >> 16
        palette[: len(colours), 1] = (colours >> 8) & 0xFF
        palette[: len(colours), 2] = colours & 0xFF
        flat = palette.reshape(-1).tolist()
        for p in packed:
            index = np.searchsorted(colours, p).astype(np.uint8)
            image = Image.fromarray(_upscale(index, scale), mode="P")
            image.putpalette(flat)
            images.append(image)
    else:
        for f in frames:
            images.append(Image.fromarray(_upscale(f, scale), mode="RGB").quantize(256))
    # GIF delays are whole hundredths of a second.
    duration = max(2, int(round(100.0 / fps))) * 10
    images[0].save(path, save_all=True, append_images=images[1:], duration=duration, loop=0, optimize=False)
    return path


def write_mp4(path, frames, fps=15.0, scale=2):
    """Writes RGB frames as an H.264 MP4 through the ``ffmpeg`` program (pixels scaled up without smoothing, sizes
    padded to even numbers; MPEG-4 part 2 when ffmpeg has no libx264). Returns the path; raises RuntimeError when
    ffmpeg is missing or fails."""
    frames = _check_frames(frames)
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise RuntimeError("ffmpeg is not on PATH")
    height, width = frames[0].shape[:2]
    data = b"".join(f.tobytes() for f in frames)
    vf = f"scale=iw*{scale}:ih*{scale}:flags=neighbor,pad=ceil(iw/2)*2:ceil(ih/2)*2"
    errors = []
    for codec in (["-c:v", "libx264", "-crf", "20", "-preset", "veryfast"], ["-c:v", "mpeg4", "-q:v", "3"]):
        cmd = [ffmpeg, "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{width}x{height}",
               "-r", f"{fps:g}", "-i", "-", "-vf", vf, *codec, "-pix_fmt", "yuv420p", "-movflags", "+faststart",
               path]
        result = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if result.returncode == 0 and os.path.getsize(path) > 0:
            return path
        errors.append(result.stderr.decode(errors="replace").strip())
    raise RuntimeError("ffmpeg failed: " + " | ".join(errors))


def write_video(stem, frames, fps=15.0, kind="auto"):
    """``kind``: "mp4", "gif", or "auto" (MP4 when ffmpeg is on PATH, else GIF). Writes ``stem + ".mp4"`` or
    ``".gif"`` and returns its path (an MP4 that ffmpeg fails to write falls back to a GIF)."""
    if kind not in ("auto", "mp4", "gif"):
        raise ValueError(f"video kind must be auto, mp4 or gif, not {kind!r}")
    if kind == "mp4" or (kind == "auto" and have_ffmpeg()):
        try:
            return write_mp4(stem + ".mp4", frames, fps=fps)
        except RuntimeError:
            if kind == "mp4" or not have_pillow():
                raise
    return write_gif(stem + ".gif", frames, fps=fps)


# ---- plots ----


def _nice_step(span, count):
    """A step of 1, 2 or 5 times a power of ten giving about ``count`` intervals over ``span``."""
    if span <= 0:
        return 1.0
    raw = span / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * power:
            return m * power
    return 10 * power


def _ticks(low, high, count):
    step = _nice_step(high - low, count)
    start = math.floor(low / step) * step
    end = math.ceil(high / step) * step
    ticks = []
    t = start
    while t <= end + step * 1e-9:
        ticks.append(round(t, 10))
        t += step
    return ticks, step


def _label(value, step):
    if step >= 1 and float(value).is_integer():
        v = int(value)
        return f"{v / 1000:g}k" if abs(v) >= 10000 and v % 1000 == 0 else str(v)
    digits = max(0, -int(math.floor(math.log10(step))))
    return f"{value:.{digits}f}"


def _font(size):
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)  # Pillow >= 10.1 with FreeType: a scalable font
    except (TypeError, OSError, AttributeError):
        return ImageFont.load_default()


def _text_size(draw, text, font):
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    return right - left, bottom - top


def plot_curves(path, series, title="", xlabel="", ylabel="", size=(800, 450)):
    """Draws line plots into a PNG. ``series``: a list of dicts with ``x`` and ``y`` (equal-length sequences),
    ``label``, ``color`` (RGB tuple), optional ``width`` (pixels, default 2), ``step`` (draw as a staircase, for
    a running best), ``dots`` (a small dot at each point) and ``line`` (False: dots only). Drawn at twice the size and scaled down, so the
    lines are smooth. Returns the path."""
    from PIL import Image, ImageDraw

    s = 2  # supersampling
    width, height = size[0] * s, size[1] * s
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    font = _font(13 * s)
    small = _font(11 * s)
    bold = _font(15 * s)

    xs = [float(v) for ser in series for v in ser["x"]]
    ys = [float(v) for ser in series for v in ser["y"]]
    if not xs:
        xs, ys = [0.0, 1.0], [0.0, 1.0]
    x_lo, x_hi = min(xs), max(xs)
    if x_hi <= x_lo:
        x_hi = x_lo + 1
    y_lo, y_hi = min(0.0, min(ys)), max(ys)
    if y_hi <= y_lo:
        y_hi = y_lo + 1
    yticks, ystep = _ticks(y_lo, y_hi + (y_hi - y_lo) * 0.04, 5)
    y_lo, y_hi = yticks[0], yticks[-1]
    xticks, xstep = _ticks(x_lo, x_hi, 8)
    xticks = [t for t in xticks if x_lo - 1e-9 <= t <= x_hi + 1e-9]

    tick_w = max(_text_size(draw, _label(t, ystep), small)[0] for t in yticks)
    left = tick_w + 44 * s
    right = width - 24 * s
    top = 46 * s
    bottom = height - 58 * s

    def px(x):
        return left + (x - x_lo) / (x_hi - x_lo) * (right - left)

    def py(y):
        return bottom - (y - y_lo) / (y_hi - y_lo) * (bottom - top)

    grid, axis, text = (228, 228, 228), (60, 60, 60), (30, 30, 30)
    for t in yticks:
        y = py(t)
        draw.line([(left, y), (right, y)], fill=grid, width=s)
        label = _label(t, ystep)
        w, h = _text_size(draw, label, small)
        draw.text((left - 8 * s - w, y - h / 2 - 2 * s), label, fill=text, font=small)
    for t in xticks:
        x = px(t)
        draw.line([(x, top), (x, bottom)], fill=grid, width=s)
        draw.line([(x, bottom), (x, bottom + 5 * s)], fill=axis, width=s)
        label = _label(t, xstep)
        w, h = _text_size(draw, label, small)
        draw.text((x - w / 2, bottom + 8 * s), label, fill=text, font=small)
    draw.rectangle([left, top, right, bottom], outline=axis, width=s)

    for ser in series:
        points = [(px(float(x)), py(float(y))) for x, y in zip(ser["x"], ser["y"])]
        if not points:
            continue
        color = tuple(ser.get("color", (31, 119, 180)))
        lw = int(ser.get("width", 2)) * s
        if ser.get("step"):
            stairs = [points[0]]
            for p in points[1:]:
                stairs.append((p[0], stairs[-1][1]))
                stairs.append(p)
            points = stairs
        if len(points) > 1 and ser.get("line", True):
            draw.line(points, fill=color, width=lw, joint="curve")
        if ser.get("dots") or len(points) == 1:
            r = 1.6 * s + lw / 2
            for x, y in points:
                draw.ellipse([x - r, y - r, x + r, y + r], fill=color)

    if title:
        w, h = _text_size(draw, title, bold)
        draw.text(((left + right) / 2 - w / 2, 14 * s), title, fill=text, font=bold)
    if xlabel:
        w, h = _text_size(draw, xlabel, font)
        draw.text(((left + right) / 2 - w / 2, height - 26 * s), xlabel, fill=text, font=font)
    if ylabel:
        w, h = _text_size(draw, ylabel, font)
        label = Image.new("RGB", (w + 4 * s, h + 8 * s), (255, 255, 255))
        ImageDraw.Draw(label).text((2 * s, 0), ylabel, fill=text, font=font)
        label = label.rotate(90, expand=True)
        image.paste(label, (8 * s, int((top + bottom) / 2 - label.height / 2)))

    # legend, top left inside the plot
    labelled = [ser for ser in series if ser.get("label")]
    if labelled:
        line_h = _text_size(draw, "Ag", small)[1] + 8 * s
        box_w = max(_text_size(draw, ser["label"], small)[0] for ser in labelled) + 44 * s
        x0, y0 = left + 10 * s, top + 10 * s
        draw.rectangle([x0, y0, x0 + box_w, y0 + line_h * len(labelled) + 8 * s], fill=(255, 255, 255),
                       outline=(200, 200, 200), width=s)
        for i, ser in enumerate(labelled):
            y = y0 + 6 * s + i * line_h + line_h / 2
            color = tuple(ser.get("color", (31, 119, 180)))
            if ser.get("line", True):
                draw.line([(x0 + 8 * s, y), (x0 + 30 * s, y)], fill=color, width=int(ser.get("width", 2)) * s)
            else:
                r = 2.5 * s
                draw.ellipse([x0 + 19 * s - r, y - r, x0 + 19 * s + r, y + r], fill=color)
            draw.text((x0 + 36 * s, y - line_h / 2 + 2 * s), ser["label"], fill=text, font=small)

    image = image.resize(size, Image.LANCZOS)
    image.save(path, optimize=True)
    return path


def text_chart(series, width=64, height=12, xlabel="", marks="#."):
    """The series as text, for a terminal: ``series`` is a list of sequences of numbers (same length, plotted
    against their index), drawn in order with the characters of ``marks`` (an earlier series wins a cell).
    Returns a list of lines, the y axis labelled on the left."""
    values = [float(v) for ser in series for v in ser]
    if not values:
        return []
    n = max(len(ser) for ser in series)
    lo, hi = min(0.0, min(values)), max(values)
    if hi <= lo:
        hi = lo + 1
    grid = [[" "] * width for _ in range(height)]
    for mark, ser in reversed(list(zip(marks, series))):
        if len(ser) >= width:  # several points a column: each one marked
            cells = [(min(width - 1, int(i * width / n)), v) for i, v in enumerate(ser)]
        else:  # fewer points than columns: each column shows the point under it
            cells = [(c, ser[int(c * n / width)]) for c in range(width) if int(c * n / width) < len(ser)]
        for col, v in cells:
            row = height - 1 - min(height - 1, int((float(v) - lo) / (hi - lo) * (height - 1) + 0.5))
            grid[row][col] = mark
    label_w = max(len(f"{hi:g}"), len(f"{lo:g}"))
    lines = []
    for r, row in enumerate(grid):
        if r == 0:
            label = f"{hi:g}"
        elif r == height - 1:
            label = f"{lo:g}"
        else:
            label = ""
        lines.append(f"{label:>{label_w}} |" + "".join(row))
    lines.append(" " * label_w + " +" + "-" * width)
    right = f"{n}"
    foot = f"{1:<{width - len(right)}}{right}"
    lines.append(" " * label_w + "  " + foot)
    if xlabel:
        lines.append(" " * label_w + "  " + xlabel.center(width))
    return lines
