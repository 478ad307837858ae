"""A report as a format-neutral document: sections of sentences, tables and figures.

The builder (:mod:`reports.build`) fills it; :mod:`reports.html` and :mod:`reports.markdown`
render it, so both formats always say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Table:
    columns: list[str]
    rows: list[list[str]]
    caption: str = ""


@dataclass
class Figure:
    png: bytes
    caption: str  # says what the error bars or bands are
    name: str  # file stem for formats that store figures beside the text


@dataclass
class Section:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    blocks: list[Table | Figure] = field(default_factory=list)
    html: str | None = None  # an already rendered fragment (a section written elsewhere)
    markdown: str | None = None

    def add(self, block: Table | Figure) -> Section:
        self.blocks.append(block)
        return self


@dataclass
class Document:
    title: str
    subtitle: str
    headline: list[str]
    sections: list[Section]
