"""The replay page (``balance replay ... --out replay.html``): one self-contained file.

The board is inline SVG drawn from the game's board declaration (``simulator.contract.boards``:
cells as squares, diamonds, hexes or graph nodes, coloured by kind); the pieces of each step come
from ``ReplayDef.frames`` and are drawn by a few lines of script; a slider, step buttons and the
arrow keys move through the events; the event log sits beside the board, and a game without a board
(or with a second view) shows ``ReplayDef.table`` rows up to the current step.
"""

from __future__ import annotations

import json
import math
from html import escape
from pathlib import Path
from typing import Any

from simulator.contract.boards import _PALETTE, Board, _spacing, node_radii
from simulator.contract.errors import BalanceError
from simulator.runs.replay import Replay, one_of, place

SEAT_COLOURS = ("#d62828", "#1d4ed8", "#2a9d8f", "#7b2cbf", "#f77f00", "#4d7c0f", "#db2777")
NEUTRAL = "#ffd60a"

CSS = """
body { font-family: Helvetica, Arial, sans-serif; margin: 0.8rem 1.2rem; color: #222; }
h1 { font-size: 1.3rem; margin: 0 0 0.2rem 0; }
.sub { color: #555; font-size: 0.85rem; margin: 0 0 0.4rem 0; }
.dot { font-size: 1.3em; }
.result { background: #f4f7fb; border-left: 4px solid #3b6ea5; padding: 0.3rem 0.8rem;
          font-size: 0.95rem; margin: 0.3rem 0 0.6rem 0; }
.main { display: flex; gap: 1rem; align-items: flex-start; }
.left { flex: 1 1 62%; min-width: 0; }
.right { flex: 1 1 38%; min-width: 18rem; }
.controls { display: flex; gap: 0.4rem; align-items: center; margin: 0.3rem 0; }
.controls input[type=range] { flex: 1; }
.controls button { font-size: 0.95rem; min-width: 2.2rem; }
#now { font-size: 0.95rem; margin: 0.2rem 0 0.4rem 0; min-height: 1.3rem; font-weight: bold; }
svg { width: 100%; height: auto; max-height: 76vh; background: #fafafa; border: 1px solid #ddd; }
#log { height: 72vh; overflow-y: auto; border: 1px solid #ddd; font-size: 0.8rem;
       font-family: Menlo, Consolas, monospace; margin: 0; padding: 0; list-style: none; }
#log li { padding: 1px 6px 1px 2.2em; text-indent: -1.6em; cursor: pointer; }
#log li.done { color: #222; } #log li.todo { color: #aaa; }
#log li.cur { background: #ffe8a3; color: #000; }
.legend span { display: inline-block; margin-right: 0.8rem; font-size: 0.8rem; }
.legend i { display: inline-block; width: 0.8rem; height: 0.8rem; margin-right: 0.25rem;
            vertical-align: middle; border: 1px solid #888; }
table { border-collapse: collapse; font-size: 0.8rem; margin: 0.4rem 0; }
th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; } tr.cur td { background: #ffe8a3; } tr.hide { display: none; }
"""

SCRIPT = """
const D = JSON.parse(document.getElementById('data').textContent);
const N = D.events.length;
const slider = document.getElementById('step');
const log = document.getElementById('log');
const pieces = document.getElementById('pieces');
const NS = 'http://www.w3.org/2000/svg';
let at = 0, timer = null;
function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function disc(x, y, r, fill, line, label, ink) {
  const g = el('g', {});
  g.appendChild(el('circle', {cx: x, cy: y, r: r, fill: fill, stroke: line,
    'stroke-width': r * 0.15}));
  g.appendChild(el('text', {x: x, y: y, 'font-size': r * 1.15, 'text-anchor': 'middle',
    'dominant-baseline': 'central', fill: ink, 'font-weight': 'bold'}, label));
  return g;
}
function draw() {
  if (!pieces) return;
  while (pieces.firstChild) pieces.removeChild(pieces.firstChild);
  const set = D.sets[D.frames[at][0]], marks = D.frames[at][1];
  for (const c of marks) {
    const xy = D.centres[c];
    pieces.appendChild(el('circle', {cx: xy[0], cy: xy[1], r: D.r * 1.25, fill: 'none',
      stroke: '#111', 'stroke-width': D.r * 0.22, 'stroke-dasharray': D.r * 0.4}));
  }
  const count = {}, seen = {};
  for (const p of set) count[p.cell] = (count[p.cell] || 0) + 1;
  for (const p of set) {
    const k = seen[p.cell] || 0;
    seen[p.cell] = k + 1;
    const n = count[p.cell], r = n > 1 ? D.r * 0.7 : D.r;
    const a = 2 * Math.PI * k / n, off = n > 1 ? D.r * 0.55 : 0;
    const x = D.centres[p.cell][0] + off * Math.cos(a);
    const y = D.centres[p.cell][1] + off * Math.sin(a);
    const neutral = p.seat < 0;
    const fill = neutral ? D.neutral : D.seats[p.seat % D.seats.length];
    const g = disc(x, y, r, fill, '#fff', p.label || '', neutral ? '#000' : '#fff');
    g.insertBefore(el('title', {}, p.name || p.label || ''), g.firstChild);
    if (p.carry) g.appendChild(disc(x + r * 0.8, y - r * 0.8, r * 0.55, D.neutral, '#000',
                                    p.carry, '#000'));
    pieces.appendChild(g);
  }
}
function show(i) {
  at = Math.max(0, Math.min(N, i));
  slider.value = at;
  document.getElementById('pos').textContent = at + ' / ' + N;
  const now = document.getElementById('now');
  now.textContent = at === 0 ? 'Before the first event' : D.lines[at - 1];
  const items = log.children;
  for (let j = 0; j < items.length; j++) {
    items[j].className = j < at - 1 ? 'done' : (j === at - 1 ? 'cur' : 'todo');
  }
  if (at > 0) {
    const t = items[at - 1].offsetTop - log.offsetTop;
    if (t < log.scrollTop || t > log.scrollTop + log.clientHeight - 20) {
      log.scrollTop = t - log.clientHeight / 2;
    }
  }
  document.querySelectorAll('#table tbody tr').forEach((tr) => {
    const e = +tr.dataset.event;
    tr.className = e > at - 1 ? 'hide' : (e === at - 1 ? 'cur' : '');
  });
  draw();
}
function play() {
  const button = document.getElementById('play');
  if (timer) { clearInterval(timer); timer = null; button.textContent = '\\u25B6'; return; }
  button.textContent = '\\u23F8';
  if (at >= N) show(0);
  timer = setInterval(() => { if (at >= N) { play(); return; } show(at + 1); }, 350);
}
slider.addEventListener('input', () => show(+slider.value));
document.getElementById('first').onclick = () => show(0);
document.getElementById('prev').onclick = () => show(at - 1);
document.getElementById('next').onclick = () => show(at + 1);
document.getElementById('last').onclick = () => show(N);
document.getElementById('play').onclick = play;
for (let j = 0; j < log.children.length; j++) log.children[j].onclick = () => show(j + 1);
document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowRight') { show(at + 1); e.preventDefault(); }
  if (e.key === 'ArrowLeft') { show(at - 1); e.preventDefault(); }
});
show(+(new URLSearchParams(location.search).get('step') || N));
"""


def _polygon(shape: str, x: float, y: float, step: float) -> str | None:
    """The tile of a cell as SVG points (as ``simulator.contract.boards.draw_board`` draws it)."""
    if shape == "square":
        n, radius, turn = 4, step / math.sqrt(2), math.pi / 4
    elif shape == "diamond":
        n, radius, turn = 4, step / math.sqrt(2) * 0.98, 0.0
    elif shape == "hex":
        n, radius, turn = 6, step / math.sqrt(3), 0.0
    else:
        return None
    pts = []
    for k in range(n):
        a = math.pi / 2 + turn + 2 * math.pi * k / n
        pts.append(f"{x + radius * math.cos(a):.3f},{y + radius * math.sin(a):.3f}")
    return " ".join(pts)


def board_svg(board: Board) -> tuple[str, list[list[float]], float]:
    """The board as an SVG element (an empty ``pieces`` group on top), the cell centres and the
    piece radius, in the SVG's units."""
    step = _spacing(board)
    scale = 40.0 / step  # a cell about 40 units across, so text sizes are sensible
    kinds = board.kinds()
    colour = {k: board.colours.get(k, _PALETTE[i % len(_PALETTE)]) for i, k in enumerate(kinds)}
    centres = [[round(c.x * scale, 3), round(c.y * scale, 3)] for c in board.cells]
    xs = [c[0] for c in centres]
    ys = [c[1] for c in centres]
    pad = 40.0
    x0, y0 = min(xs) - pad, min(ys) - pad
    w, h = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0:.1f} {y0:.1f} {w:.1f} {h:.1f}">']
    if board.shape == "graph":
        for c in board.cells:
            for j in c.neighbours:
                if j > c.id:
                    (ax, ay), (bx, by) = centres[c.id], centres[j]
                    out.append(
                        f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="#999" '
                        'stroke-width="1.5"/>'
                    )
    radii = node_radii(board, step) * scale if board.shape == "graph" else None
    for c, (x, y) in zip(board.cells, centres, strict=True):
        title = f"<title>{escape(c.label or str(c.id))} ({escape(c.kind)})</title>"
        pts = _polygon(board.shape, x, y, 40.0)
        fill = colour[c.kind]
        if pts is None:
            out.append(
                f'<circle cx="{x}" cy="{y}" r="{radii[c.id]:.2f}" fill="{fill}" stroke="#555" '
                f'stroke-width="1">{title}</circle>'
            )
        else:
            out.append(
                f'<polygon points="{pts}" fill="{fill}" stroke="#fff" stroke-width="1">'
                f"{title}</polygon>"
            )
    for c, (x, y) in zip(board.cells, centres, strict=True):
        if c.tag:
            out.append(
                f'<text x="{x}" y="{y}" font-size="13" text-anchor="middle" '
                f'dominant-baseline="central" font-weight="bold">{escape(c.tag)}</text>'
            )
    out.append('<g id="pieces"></g></svg>')
    legend = "".join(
        f'<span><i style="background:{c}"></i>{escape(entry)}</span>'
        for entry, c in board.legend_entries(colour)
    )
    return "\n".join(out) + f'\n<div class="legend">{legend}</div>', centres, 15.0


def _table_html(view: dict[str, Any]) -> str:
    head = "".join(f"<th>{escape(str(c))}</th>" for c in view["columns"])
    body = "".join(
        f'<tr data-event="{int(e)}">' + "".join(f"<td>{escape(str(v))}</td>" for v in row) + "</tr>"
        for row, e in zip(view["rows"], view["event_of_row"], strict=True)
    )
    title = escape(str(view.get("title", "")))
    return (
        f'<h2 class="sub">{title}</h2><table id="table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def _packed(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """Frames as (index of the set of pieces, marks): most events move nothing (a roll, a card
    played), so each distinct set of pieces is written once."""
    sets: list[list[dict[str, Any]]] = []
    index: dict[str, int] = {}
    packed = []
    for frame in frames:
        key = json.dumps(frame["pieces"], sort_keys=True)
        if key not in index:
            index[key] = len(sets)
            sets.append(frame["pieces"])
        packed.append([index[key], frame["marks"]])
    return {"sets": sets, "frames": packed}


def render(replay: Replay) -> str:
    """The page as one string."""
    spec, rules, n = replay.spec, replay.rules, replay.config.n_players
    definition = spec.replay
    assert definition is not None
    unit = one_of(spec.length_unit)
    places = [place(e, unit) for e in replay.events]  # "chance 2": a game file's chance event
    lines = [f"{at}: {definition.text(e)}" for at, e in zip(places, replay.events, strict=True)]
    data: dict[str, Any] = {
        "events": replay.events,
        "lines": lines,
        "seats": list(SEAT_COLOURS),
        "neutral": NEUTRAL,
    }
    left = []
    if definition.frames is not None and spec.board is not None:
        svg, centres, radius = board_svg(spec.board(rules))
        data.update(_packed(definition.frames(rules, n, replay.rows, replay.events)))
        data.update(centres=centres, r=radius)
        left.append(svg)
        if definition.pieces:
            key = "".join(
                f"<span><b>{escape(label)}</b> {escape(meaning)}</span>"
                for label, meaning in definition.pieces.items()
            )
            left.append(f'<div class="legend">Pieces: {key}</div>')
    if definition.table is not None:
        left.append(_table_html(definition.table(rules, n, replay.rows, replay.events)))
    seats = " ".join(
        f'<span class="dot" style="color:{SEAT_COLOURS[i % len(SEAT_COLOURS)]}">&#9679;</span> '
        f"seat {i + 1} {escape(p)}&nbsp;&nbsp;"
        for i, p in enumerate(replay.config.policy_labels)
    )
    log = "".join(f"<li>{escape(line)}</li>" for line in lines)
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    title = f"{spec.title} replay, seed {replay.seed}"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<style>{CSS}</style></head><body>
<h1>{escape(title)}</h1>
<p class="sub">{escape(replay.header())}</p>
<p class="sub">{seats}</p>
<div class="result">{escape(replay.result_line())}</div>
<div class="main"><div class="left">
<div class="controls"><button id="first" title="start">&#124;&#9664;</button>
<button id="prev" title="previous event (left arrow)">&#9664;</button>
<button id="play" title="play">&#9654;</button>
<button id="next" title="next event (right arrow)">&#9654;&#124;</button>
<button id="last" title="end">&#9654;&#9654;&#124;</button>
<input type="range" id="step" min="0" max="{len(lines)}" value="0"><span id="pos"></span></div>
<div id="now"></div>
{"".join(left)}
</div><div class="right"><ol id="log">{log}</ol></div></div>
<script type="application/json" id="data">{payload}</script>
<script>{SCRIPT}</script>
</body></html>
"""


def check_page_path(out: Path) -> None:
    """Refuse a page path that cannot be written (before the game is played)."""
    if out.suffix.lower() not in (".html", ".htm"):
        raise BalanceError(f"--out {out}: name an .html file")
    if not out.parent.exists():
        raise BalanceError(f"--out {out}: folder {out.parent} does not exist")
    if out.is_dir():
        raise BalanceError(f"--out {out} is a folder; name an .html file")


def write_page(replay: Replay, out: Path) -> None:
    """Write the replay page to ``out`` (a whole file or none: written aside, then renamed)."""
    page = render(replay)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(page, encoding="utf-8")
    tmp.replace(out)
