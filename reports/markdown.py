"""The report as Markdown; figures are written as PNG files in a folder beside it."""

from __future__ import annotations

from pathlib import Path

from .document import Document, Figure, Section, Table


def render_markdown(doc: Document, figures_dir: Path | None) -> tuple[str, dict[str, bytes]]:
    """Markdown text plus the figure files it links to (name relative to the .md -> PNG bytes).

    With ``figures_dir`` None, figures are left out and only their captions remain.
    """
    files: dict[str, bytes] = {}
    lines = [f"# {doc.title}", "", f"_{doc.subtitle}_", ""]
    if doc.headline:
        lines += ["## Headline findings", ""] + [f"- {line}" for line in doc.headline] + [""]
    for section in doc.sections:
        lines += _section(section, figures_dir, files)
    return "\n".join(lines).rstrip() + "\n", files


def _section(section: Section, figures_dir: Path | None, files: dict[str, bytes]) -> list[str]:
    lines = [f"## {section.title}", ""]
    for p in section.paragraphs:
        lines += [p, ""]
    for block in section.blocks:
        if isinstance(block, Table):
            lines += _table(block)
        else:
            lines += _figure(block, figures_dir, files)
    if section.markdown:
        lines += [section.markdown, ""]
    return lines


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _table(table: Table) -> list[str]:
    lines = [
        "| " + " | ".join(_cell(c) for c in table.columns) + " |",
        "|" + "|".join("---" for _ in table.columns) + "|",
    ]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in table.rows]
    if table.caption:
        lines += ["", f"_{table.caption}_"]
    return lines + [""]


def _figure(figure: Figure, figures_dir: Path | None, files: dict[str, bytes]) -> list[str]:
    if figures_dir is None:
        return [f"_Figure: {figure.caption}_", ""]
    rel = f"{figures_dir.name}/{figure.name}.png"
    files[rel] = figure.png
    return [f"![{figure.caption}]({rel})", "", f"_{figure.caption}_", ""]
