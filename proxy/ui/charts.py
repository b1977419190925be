"""Charts as geometry for server-side SVG: the templates draw these shapes, no JavaScript.

Every function returns a :class:`Chart` (rectangles, lines, polylines and text labels in a fixed
view box); ``templates/_chart.html`` turns it into an inline ``<svg>``. Text goes through Jinja2's
autoescaping like everything else, so a model name in a label cannot inject markup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

WIDTH, HEIGHT = 720.0, 190.0
LEFT, RIGHT, TOP, BOTTOM = 64.0, 12.0, 10.0, 24.0


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    cls: str
    title: str


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    cls: str


@dataclass(frozen=True, slots=True)
class Polyline:
    points: str
    cls: str
    title: str


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float
    text: str
    anchor: str = "start"
    cls: str = "axis"


@dataclass(slots=True)
class Chart:
    """Shapes of one chart; ``legend`` pairs a CSS class with a series name."""

    title: str
    width: float = WIDTH
    height: float = HEIGHT
    rects: list[Rect] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    polylines: list[Polyline] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    legend: list[tuple[str, str]] = field(default_factory=list)


def _nice_max(value: float) -> float:
    """A round upper bound ≥ ``value`` (1, 2, 2.5, 5 × a power of ten)."""
    if value <= 0:
        return 1.0
    power = 10.0 ** len(str(int(value))) / 10.0 if value >= 1 else 1.0
    while power > value:
        power /= 10.0
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if step * power >= value:
            return step * power
    return 10.0 * power


def _frame(chart: Chart, labels: Sequence[str], y_max: float, fmt: Callable[[float], str]) -> None:
    plot_h = chart.height - TOP - BOTTOM
    previous = None
    for frac in (0.0, 0.5, 1.0):
        y = TOP + plot_h * (1 - frac)
        chart.lines.append(Line(LEFT, y, chart.width - RIGHT, y, "grid"))
        label = fmt(y_max * frac)
        if label != previous:  # a count axis up to 1 would read 0, 0, 1
            chart.texts.append(Text(LEFT - 6, y + 4, label, "end"))
        previous = label
    n = len(labels)
    if n:
        plot_w = chart.width - LEFT - RIGHT
        picks = sorted({0, n // 2, n - 1})
        for i in picks:
            x = LEFT + plot_w * (i + 0.5) / n
            anchor = "start" if i == 0 and n > 2 else "end" if i == n - 1 and n > 2 else "middle"
            chart.texts.append(Text(x, chart.height - 6, labels[i], anchor))


def bars(title: str, labels: Sequence[str], series: Sequence[tuple[str, str, Sequence[float]]],
         fmt: Callable[[float], str] = lambda v: f"{v:,.0f}", names: Sequence[str] | None = None) -> Chart:
    """Stacked bars: one bar per label, ``series`` = (name, css class, values) stacked bottom-up;
    ``names``: what each bar's tooltip calls it (default: its label)."""
    names = names or labels
    chart = Chart(title, legend=[(cls, name) for name, cls, _ in series])
    n = len(labels)
    stack_tops = [sum(max(values[i], 0.0) for _, _, values in series) for i in range(n)]
    y_max = _nice_max(max(stack_tops, default=0.0))
    _frame(chart, labels, y_max, fmt)
    plot_w, plot_h = chart.width - LEFT - RIGHT, chart.height - TOP - BOTTOM
    slot = plot_w / max(n, 1)
    width = max(slot * 0.8, 0.5)
    for i in range(n):
        base = 0.0
        for name, cls, values in series:
            v = max(values[i], 0.0)
            if v <= 0:
                continue
            h = plot_h * v / y_max
            y = TOP + plot_h * (1 - (base + v) / y_max)
            chart.rects.append(Rect(LEFT + slot * i + (slot - width) / 2, y, width, h, cls,
                                    f"{names[i]} · {name}: {fmt(v)}"))
            base += v
    return chart


def lines(title: str, labels: Sequence[str], series: Sequence[tuple[str, str, Sequence[float | None]]],
          fmt: Callable[[float], str] = lambda v: f"{v:,.2f}", y_max: float | None = None,
          reference: tuple[float, str] | None = None) -> Chart:
    """Line series over the labels (``None``: no point); ``reference``: a dashed level line."""
    chart = Chart(title, legend=[(cls, name) for name, cls, _ in series])
    values = [v for _, _, vals in series for v in vals if v is not None]
    top = max(values + ([reference[0]] if reference else []), default=0.0)
    y_max = y_max if y_max is not None else _nice_max(top)
    _frame(chart, labels, y_max, fmt)
    n = len(labels)
    plot_w, plot_h = chart.width - LEFT - RIGHT, chart.height - TOP - BOTTOM

    def xy(i: int, v: float) -> tuple[float, float]:
        return LEFT + plot_w * (i + 0.5) / max(n, 1), TOP + plot_h * (1 - min(max(v / y_max, 0.0), 1.0))

    for name, cls, vals in series:
        run: list[str] = []
        for i, v in enumerate(vals):
            if v is None:
                if run:
                    chart.polylines.append(Polyline(" ".join(run), cls, name))
                run = []
                continue
            x, y = xy(i, v)
            run.append(f"{x:.1f},{y:.1f}")
            chart.rects.append(Rect(x - 2, y - 2, 4, 4, cls + " dot", f"{labels[i]} · {name}: {fmt(v)}"))
        if run:
            chart.polylines.append(Polyline(" ".join(run), cls, name))
    if reference is not None:
        y = xy(0, reference[0])[1]
        chart.lines.append(Line(LEFT, y, chart.width - RIGHT, y, "reference"))
        chart.texts.append(Text(chart.width - RIGHT, y - 4, reference[1], "end", "reference-label"))
    return chart


def histogram(title: str, counts: Sequence[int], lo: float = 0.0, hi: float = 1.0,
              marker: tuple[float, str] | None = None, cls: str = "s1") -> Chart:
    """Bars of equal-width bins over [lo, hi]; ``marker``: a vertical line (e.g. the threshold)."""
    n = len(counts)
    width = (hi - lo) / max(n, 1)
    labels = [f"{lo + width * i:.2f}" for i in range(n)]
    labels[-1:] = [f"{hi:.2f}"] if n else []
    names = [f"{lo + width * i:.2f}–{lo + width * (i + 1):.2f}" for i in range(n)]
    chart = bars(title, labels, [("requests", cls, [float(c) for c in counts])], names=names)
    chart.legend = []
    if marker is not None and hi > lo:
        plot_w = chart.width - LEFT - RIGHT
        x = LEFT + plot_w * (min(max(marker[0], lo), hi) - lo) / (hi - lo)
        chart.lines.append(Line(x, TOP, x, chart.height - BOTTOM, "reference"))
        chart.texts.append(Text(x + 4, TOP + 12, marker[1], "start", "reference-label"))
    return chart
