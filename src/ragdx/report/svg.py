"""Small inline-SVG charts, drawn in Python: no JavaScript library, nothing fetched at view time.

Every chart is an ``<svg>`` with a ``viewBox`` (it scales with the page and prints sharply), a
``<title>`` for screen readers, and its numbers in ``<title>`` tooltips of the marks.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from html import escape

FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif"'
#: advance widths (em) of ASCII 32..126 in DejaVu Sans, the widest of the fonts ``FONT`` falls back
#: to (Linux's system-ui): a label sized by them fits in Segoe UI, Roboto or Helvetica too
_WIDTHS = (
    0.318, 0.401, 0.46, 0.838, 0.636, 0.95, 0.78, 0.275, 0.39, 0.39, 0.5, 0.838, 0.318, 0.361, 0.318, 0.337,
    0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.337, 0.337, 0.838, 0.838, 0.838, 0.531,
    1.0, 0.684, 0.686, 0.698, 0.77, 0.632, 0.575, 0.775, 0.752, 0.295, 0.295, 0.656, 0.557, 0.863, 0.748, 0.787,
    0.603, 0.787, 0.695, 0.635, 0.611, 0.732, 0.684, 0.989, 0.685, 0.611, 0.685, 0.39, 0.337, 0.39, 0.838, 0.5,
    0.5, 0.613, 0.635, 0.55, 0.635, 0.615, 0.352, 0.635, 0.634, 0.278, 0.278, 0.579, 0.278, 0.974, 0.634, 0.612,
    0.635, 0.635, 0.411, 0.521, 0.392, 0.634, 0.592, 0.818, 0.592, 0.592, 0.525, 0.636, 0.337, 0.636, 0.838)
#: labels are drawn at this size unless a class says otherwise (``.axis`` is 11 px)
SIZE = 12


def text_width(text: str, size: float = SIZE) -> float:
    """The width in px a label takes, so that a chart leaves it room instead of clipping it
    (an SVG text is never wrapped or shrunk by the browser)."""
    em = 0.0
    for ch in text:
        code = ord(ch)
        if 32 <= code < 127:
            em += _WIDTHS[code - 32]
        else:  # CJK and other wide characters take a full em; other letters about a capital's width
            em += 1.0 if unicodedata.east_asian_width(ch) in ("W", "F") else 0.84
    return em * size


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if math.isfinite(x) else "0"


def _open(width: int, height: int, title: str, cls: str) -> list[str]:
    return [f'<svg class="chart {cls}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'role="img" aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg" {FONT} font-size="12">',
            f"<title>{escape(title)}</title>"]


def _text(x: float, y: float, s: str, anchor: str = "start", cls: str = "", extra: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    return f'<text x="{_f(x)}" y="{_f(y)}" text-anchor="{anchor}"{c} {extra}>{escape(s)}</text>'


def _legend(items: Sequence[tuple[str, str]], x0: float, y0: float, right: float, *, swatch: str = "box",
            opacity: str = "") -> tuple[list[str], float]:
    """Legend entries (label, colour) laid out left to right from (x0, y0), starting a new row
    where the next would pass ``right``; returns the marks and the height taken."""
    out, x, y, row = [], x0, y0, 18
    for label, colour in items:
        w = 16 + text_width(label) + 14
        if x > x0 and x + w - 14 > right:
            x, y = x0, y + row
        h = 12 if swatch == "box" else 4
        out.append(f'<rect x="{_f(x)}" y="{_f(y + (0 if swatch == "box" else 4))}" width="12" height="{h}" '
                   f'fill="{colour}"{opacity}/>')
        out.append(_text(x + 16, y + 10, label))
        x += w
    return out, y + row - y0


def stacked_bars(rows: Sequence[tuple[str, Sequence[tuple[str, float]]]], colours: dict[str, str], *,
                 title: str, width: int = 720, label_width: int = 150, bar: int = 22, percent: bool = True,
                 legend_labels: dict[str, str] | None = None) -> str:
    """One horizontal bar per row, split into named segments (shares of the row's total)."""
    legend_labels = legend_labels or {}
    names = list(colours)
    # the label column fits the longest label; the bars keep at least half the width
    label_width = max(label_width, math.ceil(max([text_width(r[0]) for r in rows] + [0]) + 16))
    width = max(width, 2 * label_width + 10)
    plot = width - label_width - 10
    legend, legend_h = _legend([(legend_labels.get(n, n), colours[n]) for n in names], label_width, 4, width - 4)
    top = int(4 + legend_h + 4)
    height = top + len(rows) * (bar + 10) + 10
    out = _open(width, height, title, "stacked") + legend
    for i, (label, segments) in enumerate(rows):
        y = top + i * (bar + 10)
        out.append(_text(label_width - 8, y + bar * 0.7, label, "end"))
        total = sum(v for _, v in segments) or 1.0
        x = float(label_width)
        for name, v in segments:
            w = plot * v / total
            if w <= 0:
                continue
            share = v / total
            tip = f"{label}: {legend_labels.get(name, name)} {v:g} ({share:.0%})"
            out.append(f'<rect x="{_f(x)}" y="{y}" width="{_f(w)}" height="{bar}" fill="{colours.get(name, "#999")}">'
                       f"<title>{escape(tip)}</title></rect>")
            shown = f"{share:.0%}" if percent else f"{v:g}"
            if w > text_width(shown, 11) + 8:  # a number that does not fit its segment is in the tooltip
                out.append(_text(x + w / 2, y + bar * 0.7, shown, "middle", "onbar"))
            x += w
    out.append("</svg>")
    return "\n".join(out)


def interval_dots(rows: Sequence[tuple[str, float, float, float]], *, title: str, lo: float = 0.0, hi: float = 1.0,
                  zero: float | None = None, width: int = 720, label_width: int = 260, colour: str = "#3367d6",
                  signed: bool = False, colours: Sequence[str] | None = None) -> str:
    """Point estimates with interval whiskers on one axis (a forest plot); ``zero`` draws a
    reference line (0 for differences)."""
    top, row_h = 14, 26
    height = top + len(rows) * row_h + 34
    # the label column fits the longest label; the axis keeps at least 40 % of the width
    label_width = max(label_width, math.ceil(max([text_width(r[0]) for r in rows] + [0]) + 20))
    width = max(width, math.ceil((label_width + 20) / 0.6))
    plot_l, plot_r = label_width, width - 20
    span = (hi - lo) or 1.0

    def sx(v: float) -> float:
        return plot_l + (min(max(v, lo), hi) - lo) / span * (plot_r - plot_l)

    out = _open(width, height, title, "dots")
    axis_y = top + len(rows) * row_h + 4
    ticks = 5
    for step in (0.1, 0.2, 0.25, 0.5):  # a tick every round step when the span allows it
        if 2 <= span / step <= 10 and abs(span / step - round(span / step)) < 1e-9:
            ticks = round(span / step)
            break
    for t in range(ticks + 1):
        v = lo + span * t / ticks
        x = sx(v)
        out.append(f'<line x1="{_f(x)}" x2="{_f(x)}" y1="{top - 6}" y2="{axis_y}" class="grid"/>')
        out.append(_text(x, axis_y + 16, f"{v:+.2f}" if signed else f"{v:.2f}", "middle", "axis"))
    if zero is not None:
        out.append(f'<line x1="{_f(sx(zero))}" x2="{_f(sx(zero))}" y1="{top - 6}" y2="{axis_y}" class="zero"/>')
    for i, (label, v, a, b) in enumerate(rows):
        y = top + i * row_h + row_h / 2
        c = (colours[i % len(colours)] if colours else colour)
        out.append(_text(plot_l - 10, y + 4, label, "end"))
        tip = f"{label}: {v:.3f}" + (f" [{a:.3f}, {b:.3f}]" if math.isfinite(a) and math.isfinite(b) else "")
        if math.isfinite(a) and math.isfinite(b):
            out.append(f'<line x1="{_f(sx(a))}" x2="{_f(sx(b))}" y1="{_f(y)}" y2="{_f(y)}" stroke="{c}" '
                       f'stroke-width="2.5"/>')
            for e in (a, b):
                out.append(f'<line x1="{_f(sx(e))}" x2="{_f(sx(e))}" y1="{_f(y - 6)}" y2="{_f(y + 6)}" '
                           f'stroke="{c}" stroke-width="2"/>')
        if math.isfinite(v):
            out.append(f'<circle cx="{_f(sx(v))}" cy="{_f(y)}" r="5.5" fill="{c}">'
                       f"<title>{escape(tip)}</title></circle>")
    out.append("</svg>")
    return "\n".join(out)


def histograms(series: Sequence[tuple[str, Sequence[float], str]], *, title: str, bins: int = 20, lo: float = 0.0,
               hi: float = 1.0, width: int = 520, height: int = 240, xlabel: str = "", alpha_line: float | None = None
               ) -> str:
    """Overlaid histograms (share of each series per bin), same bins for all series."""
    left, right, bottom = 46, 12, 40
    legend, legend_h = _legend([(f"{name} (n={len(values)})", colour) for name, values, colour in series],
                               left, 4, width - 4, opacity=' fill-opacity="0.7"')
    top = int(4 + legend_h + 6)
    height += top - 26  # the plot keeps its height under a legend of several rows
    pw, ph = width - left - right, height - top - bottom
    span = (hi - lo) or 1.0
    shares = []
    for _, values, _ in series:
        counts = [0] * bins
        for v in values:
            i = min(bins - 1, max(0, int((v - lo) / span * bins)))
            counts[i] += 1
        n = max(1, len(values))
        shares.append([c / n for c in counts])
    ymax = max([max(s) for s in shares if s] + [0.05])
    ymax = math.ceil(ymax * 10) / 10
    out = _open(width, height, title, "hist")
    for t in range(5):
        v = ymax * t / 4
        y = top + ph - ph * v / ymax
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{_f(y)}" y2="{_f(y)}" class="grid"/>')
        out.append(_text(left - 6, y + 4, f"{v:.0%}", "end", "axis"))
    bw = pw / bins
    for (name, _values, colour), sh in zip(series, shares, strict=True):
        for i, s in enumerate(sh):
            if s <= 0:
                continue
            h = ph * s / ymax
            a, b = lo + span * i / bins, lo + span * (i + 1) / bins
            out.append(f'<rect x="{_f(left + i * bw + 1)}" y="{_f(top + ph - h)}" width="{_f(bw - 2)}" '
                       f'height="{_f(h)}" fill="{colour}" fill-opacity="0.55" stroke="{colour}">'
                       f"<title>{escape(f'{name}: {s:.0%} in [{a:.2f}, {b:.2f})')}</title></rect>")
    for t in range(6):
        v = lo + span * t / 5
        x = left + pw * t / 5
        out.append(_text(x, top + ph + 16, f"{v:.1f}", "middle", "axis"))
    if alpha_line is not None:
        x = left + pw * (alpha_line - lo) / span
        out.append(f'<line x1="{_f(x)}" x2="{_f(x)}" y1="{top}" y2="{top + ph}" class="zero"/>')
        out.append(_text(x + 4, top + 10, f"α = {alpha_line:g}", "start", "axis"))
    out.append(_text(left + pw / 2, height - 4, xlabel, "middle", "axis"))
    out += legend
    out.append("</svg>")
    return "\n".join(out)


def lines(series: Sequence[tuple[str, Sequence[float], Sequence[float], str]], *, title: str, xlabel: str,
          ylabel: str, width: int = 420, height: int = 300, diagonal: bool = False, step: bool = False,
          xlim: tuple[float, float] = (0.0, 1.0), ylim: tuple[float, float] = (0.0, 1.0)) -> str:
    """Line (or step) charts: ROC curves, empirical CDFs."""
    left, right, bottom = 48, 14, 42
    legend, legend_h = _legend([(name, colour) for name, _, _, colour in series], left + 6, 4, width - 4,
                               swatch="line")
    top = int(4 + legend_h + 6)
    height += top - 28  # the plot keeps its height under a legend of several rows
    pw, ph = width - left - right, height - top - bottom
    (x0, x1), (y0, y1) = xlim, ylim

    def sx(v: float) -> float:
        return left + (v - x0) / ((x1 - x0) or 1) * pw

    def sy(v: float) -> float:
        return top + ph - (v - y0) / ((y1 - y0) or 1) * ph

    out = _open(width, height, title, "lines")
    for t in range(6):
        xv, yv = x0 + (x1 - x0) * t / 5, y0 + (y1 - y0) * t / 5
        out.append(f'<line x1="{_f(sx(xv))}" x2="{_f(sx(xv))}" y1="{top}" y2="{top + ph}" class="grid"/>')
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{_f(sy(yv))}" y2="{_f(sy(yv))}" class="grid"/>')
        out.append(_text(sx(xv), top + ph + 15, f"{xv:.2g}", "middle", "axis"))
        out.append(_text(left - 5, sy(yv) + 4, f"{yv:.1f}", "end", "axis"))
    if diagonal:
        out.append(f'<line x1="{_f(sx(x0))}" y1="{_f(sy(y0))}" x2="{_f(sx(x1))}" y2="{_f(sy(y1))}" class="zero"/>')
    for name, xs, ys, colour in series:
        pts = []
        prev_y = None
        for xv, yv in zip(xs, ys, strict=True):
            if step and prev_y is not None:
                pts.append(f"{_f(sx(xv))},{_f(sy(prev_y))}")
            pts.append(f"{_f(sx(xv))},{_f(sy(yv))}")
            prev_y = yv
        out.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{colour}" stroke-width="2.2">'
                   f"<title>{escape(name)}</title></polyline>")
    out.append(_text(left + pw / 2, height - 6, xlabel, "middle", "axis"))
    out.append(_text(12, top + ph / 2, ylabel, "middle", "axis", f'transform="rotate(-90 12 {_f(top + ph / 2)})"'))
    out += legend
    out.append("</svg>")
    return "\n".join(out)


def ecdf(values: Sequence[float]) -> tuple[list[float], list[float]]:
    xs = sorted(values)
    n = len(xs)
    return xs, [(i + 1) / n for i in range(n)]
