"""One self-contained HTML file: inline CSS, figures as base64 PNG, no external reference."""

from __future__ import annotations

import base64
from html import escape

from .document import Document, Figure, Section, Table

CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 62rem; margin: 2rem auto;
       padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { font-size: 1.7rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.3rem; border-bottom: 1px solid #ccc; padding-bottom: 0.2rem; margin-top: 2rem; }
.subtitle { color: #555; margin-top: 0; }
.headline { background: #f4f7fb; border-left: 4px solid #3b6ea5; padding: 0.6rem 1.2rem; }
.headline li { margin: 0.35rem 0; }
table { border-collapse: collapse; margin: 0.8rem 0; font-family: Helvetica, Arial, sans-serif;
        font-size: 0.88rem; }
th, td { border: 1px solid #ddd; padding: 0.25rem 0.55rem; text-align: right; }
th { background: #f0f0f0; }
td:first-child, th:first-child { text-align: left; }
caption { caption-side: bottom; color: #555; font-size: 0.8rem; text-align: left;
          padding-top: 4px; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; }
figcaption { color: #555; font-size: 0.85rem; }
"""


def render_html(doc: Document) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(doc.title)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{escape(doc.title)}</h1>",
        f'<p class="subtitle">{escape(doc.subtitle)}</p>',
    ]
    if doc.headline:
        parts.append('<h2>Headline findings</h2><ul class="headline">')
        parts += [f"<li>{escape(line)}</li>" for line in doc.headline]
        parts.append("</ul>")
    parts += [_section(s) for s in doc.sections]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _section(section: Section) -> str:
    out = [f"<h2>{escape(section.title)}</h2>"]
    out += [f"<p>{escape(p)}</p>" for p in section.paragraphs]
    for block in section.blocks:
        out.append(_table(block) if isinstance(block, Table) else _figure(block))
    if section.html:
        out.append(section.html)
    return "\n".join(out)


def _table(table: Table) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in table.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in row) + "</tr>" for row in table.rows
    )
    caption = f"<caption>{escape(table.caption)}</caption>" if table.caption else ""
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _figure(figure: Figure) -> str:
    data = base64.b64encode(figure.png).decode("ascii")
    return (
        f'<figure><img alt="{escape(figure.caption)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{escape(figure.caption)}</figcaption></figure>"
    )
