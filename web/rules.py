"""The rules as the referee plays them: ``docs/rules/*.md`` rendered to HTML when served.

Every rule chip on the live page (``CR-18``, ``PP-G5``) opens the rule's text: ``GET
/api/rules/<id>`` gives the rule's own passage (a row of a rule table, an item of a list)
and the address of its page, ``/rules/<game>#<id>``, where every rule id has an anchor.
``/rules/rule/<id>`` leads there.

Markdown is rendered by markdown-it-py (CommonMark with tables; raw HTML in the sources is
not passed through), once per file and change. Links between the pages (``recall.md``)
become links between the served pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template
from werkzeug.wrappers import Response as BaseResponse

from web import get_referee
from web.validation import ApiError

bp = Blueprint("rules", __name__)

RULE_ID = re.compile(r"\b([A-Z]{2}-G?\d+[a-z]?)\b")
LEADING_ID = re.compile(r"^\s*(?:\*\*)?\(?([A-Z]{2}-G?\d+[a-z]?)\b")
"""A passage that starts with a rule id is that rule's own."""
GAME_NAME = re.compile(r"[a-z][a-z-]{0,39}")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


@dataclass
class RulePage:
    game: str
    title: str
    html: str
    passages: dict[str, str] = field(default_factory=dict)
    """Rule id -> the HTML of its own passage."""


def rules_dir() -> Path:
    return Path(current_app.config.get("RULES_DIR") or DOCS)


def pages() -> dict[str, RulePage]:
    """Every rules page, by game (an empty dict when the docs are not installed)."""
    folder = rules_dir()
    files = sorted(folder.glob("*.md")) if folder.is_dir() else []
    return {path.stem: _render(str(path), path.stat().st_mtime_ns) for path in files}


@lru_cache(maxsize=16)
def _render(path: str, _mtime: int) -> RulePage:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    text = Path(path).read_text(encoding="utf-8")
    env: dict[str, Any] = {}
    tokens = md.parse(text, env)
    game = Path(path).stem
    title = game
    passages: dict[str, str] = {}
    anchored: set[str] = set()
    blocks = _blocks(tokens)
    for token in tokens:
        if token.type == "inline" and token.children:
            for child in token.children:
                if child.type == "link_open":
                    href = str(child.attrGet("href") or "")
                    match = re.fullmatch(r"([a-z][a-z-]*)\.md(#.*)?", href)
                    if match:
                        child.attrSet("href", f"/rules/{match.group(1)}{match.group(2) or ''}")
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h1":
            title = tokens[index + 1].content
            break
    # A rule's anchor goes on its own passage; a rule only mentioned gets one where it is first named.
    for own in (True, False):
        for block in blocks:
            first = block.inlines[0].content if block.inlines else ""
            if own:
                found = LEADING_ID.match(first)
                ids = [found.group(1)] if found else []
                if not ids and block.kind == "row":  # a house rule's row: "`goal_end` (PP-G3)"
                    ids = re.findall(r"\(([A-Z]{2}-G?\d+[a-z]?)\)", first)[:1]
            else:
                ids = RULE_ID.findall(" ".join(inline.content for inline in block.inlines))
            for rule_id in ids:
                if rule_id in anchored:
                    continue
                anchored.add(rule_id)
                _anchor(block.inlines[0], rule_id)
                passages[rule_id] = block.html(md, env)
    html = md.renderer.render(tokens, md.options, env)
    return RulePage(game, title, html, passages)


@dataclass
class _Block:
    kind: str
    """``row`` (a table's row), ``item`` (a list item) or ``para``."""
    inlines: list[Any]
    headers: list[str]

    def html(self, md: Any, env: dict[str, Any]) -> str:
        cells = [md.renderer.renderInline(inline.children or [], md.options, env) for inline in self.inlines]
        if self.kind != "row":
            return f"<p>{cells[0]}</p>"
        pairs = [(head, cell, inline.content) for head, cell, inline
                 in zip(self.headers, cells, self.inlines, strict=False)]
        return "<dl>" + "".join(f"<dt>{_escape(head)}</dt><dd>{cell}</dd>" for head, cell, text in pairs
                                if not RULE_ID.fullmatch(text.strip())) + "</dl>"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _blocks(tokens: list[Any]) -> list[_Block]:
    """The passages a rule can own: table rows, list items (their first paragraph) and
    paragraphs, in the page's order."""
    blocks: list[_Block] = []
    headers: list[str] = []
    row: list[Any] | None = None
    in_head = False
    item_depth = 0
    item_open = False
    for token in tokens:
        if token.type == "thead_open":
            in_head, headers = True, []
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open" and not in_head:
            row = []
        elif token.type == "tr_close" and row is not None:
            blocks.append(_Block("row", row, list(headers)))
            row = None
        elif token.type == "list_item_open":
            item_depth += 1
            item_open = True
        elif token.type == "list_item_close":
            item_depth -= 1
        elif token.type == "inline":
            if in_head:
                headers.append(token.content)
            elif row is not None:
                row.append(token)
            elif item_open:
                blocks.append(_Block("item", [token], []))
                item_open = False
            elif item_depth == 0:
                blocks.append(_Block("para", [token], []))
    return blocks


def _anchor(inline: Any, rule_id: str) -> None:
    from markdown_it.token import Token

    span = Token("html_inline", "", 0)
    span.content = f'<span class="rule-anchor" id="{rule_id}"></span>'
    inline.children = [span, *(inline.children or [])]


def _find(rule_id: str) -> tuple[RulePage, str]:
    if not RULE_ID.fullmatch(rule_id):
        raise ApiError(400, "rule", f"{rule_id[:20]!r} is not a rule id (like CR-18 or PP-G5)")
    for page in pages().values():
        if rule_id in page.passages:
            return page, page.passages[rule_id]
    raise ApiError(404, "rule", f"no rules page names {rule_id}")


@bp.get("/rules")
def index() -> str:
    referee = get_referee()
    return render_template("rules.html", table_name=referee.table_name, demo=referee.demo, page=None,
                           pages=sorted(pages().values(), key=lambda p: p.title))


@bp.get("/rules/<game>")
def page(game: str) -> str:
    found = pages().get(game) if GAME_NAME.fullmatch(game) else None
    if found is None:
        raise ApiError(404, "game", f"no rules page for {game[:40]!r}")
    referee = get_referee()
    return render_template("rules.html", table_name=referee.table_name, demo=referee.demo, page=found,
                           pages=sorted(pages().values(), key=lambda p: p.title))


@bp.get("/rules/rule/<rule_id>")
def rule_page(rule_id: str) -> BaseResponse:
    found, _ = _find(rule_id)
    return redirect(f"/rules/{found.game}#{rule_id}")


@bp.get("/api/rules/<rule_id>")
def rule(rule_id: str) -> Response:
    """``{"id", "game", "title", "html", "url"}``: the rule's own passage and its page."""
    found, passage = _find(rule_id)
    return jsonify({"id": rule_id, "game": found.game, "title": found.title, "html": passage,
                    "url": f"/rules/{found.game}#{rule_id}"})
