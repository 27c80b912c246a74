"""The one-file explorer (dist/attnx.html, built by ``npm run build``) as this package uses it.

The page is found in the package (``pip install ./python`` copies it in), else at $ATTNX_HTML, else
in the checkout this module lies in (python/../dist/attnx.html). It publishes the part of the
core's schema this package checks its arguments against (the data block ``attnx-schema``: link
version, the pages' limits, the number grammar, the option table), so no limit is written here;
and it has a place for a saved view (the data block ``attnx-view``, format ``attnx-view/1``:
docs/embedding.md), which ``with_view`` fills.
"""

import base64
import html
import json
import math
import os
import re
from urllib.parse import quote

HERE = os.path.dirname(os.path.abspath(__file__))
VIEW_FORMAT = "attnx-view/1"
_VIEW_BLOCK = re.compile(r'<script type="application/json" id="attnx-view">[\s\S]*?</script>')
_SCHEMA_BLOCK = re.compile(r'<script type="application/json" id="attnx-schema">([\s\S]*?)</script>')
_cache = {}


def html_path():
    """Where the one-file explorer is; FileNotFoundError saying how to build it."""
    candidates = [os.path.join(HERE, "attnx.html"), os.environ.get("ATTNX_HTML"),
                  os.path.join(HERE, os.pardir, os.pardir, "dist", "attnx.html")]
    for path in candidates:
        if path and os.path.isfile(path):
            return os.path.abspath(path)
    raise FileNotFoundError("attnx.html was not found: run `npm run build` in the attnx checkout, then "
                            "`pip install ./python` (or set ATTNX_HTML to the file)")


def page_text():
    """The one-file explorer's text (read once)."""
    path = html_path()
    if _cache.get("path") != path:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if not _VIEW_BLOCK.search(text):
            raise RuntimeError("%s has no place for a view: build it again (npm run build)" % path)
        _cache.clear()
        _cache.update(path=path, text=text)
    return _cache["text"]


class Schema:
    """The core's schema as the one-file page publishes it."""

    def __init__(self, data):
        self.data = data

    def option(self, name):
        return self.data["options"][name]

    @property
    def max_L(self):
        return self.data["pageLimits"]["maxL"]

    @property
    def link_version(self):
        return self.data["linkVersion"]

    @property
    def custom_family(self):
        """The pattern family of a target given as data (an imported head's)."""
        return self.data["customFamily"]

    @property
    def max_saved_bytes(self):
        return self.data["maxSavedHeadBytes"]

    def settings(self):
        """The explorer's link settings a view may set beside the head: those of its link that
        do not make the target (the head does)."""
        return [k for k in self.data["linkCompute"]["explorer"] if self.option(k)["group"] != "pattern"]

    def upper(self, name):
        """The explorer's largest value of option `name` (its own maximum when it has one)."""
        own = self.data.get("explorerMax", {}).get(name)
        return own if isinstance(own, (int, float)) and not isinstance(own, bool) and own > 0 else self.option(name)["max"]


def schema():
    text = page_text()
    if "schema" not in _cache:
        m = _SCHEMA_BLOCK.search(text)
        if not m:
            raise RuntimeError("%s publishes no schema: build it again (npm run build)" % html_path())
        _cache["schema"] = Schema(json.loads(m.group(1)))
    return _cache["schema"]


def _number_text(name, o, value, grammar):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (isinstance(value, float) and not math.isfinite(value)):
        raise ValueError("%s must be %s (got %r)" % (name, o["rangeText"], value))
    text = str(int(value)) if o["kind"] == "int" else ("0" if value == 0 else repr(float(value)))
    if o["kind"] == "int" and value != int(value):
        raise ValueError("%s must be %s (got %r)" % (name, o["rangeText"], value))
    if not re.fullmatch(grammar[o["kind"] == "int" and "integer" or "real"].strip("^$"), text):
        raise ValueError("%s must be %s (got %r)" % (name, o["rangeText"], value))
    return text


def setting_text(name, value, s):
    """The link text of setting `name` = value, checked against the core's option table."""
    o = s.option(name)
    kind = o["kind"]
    if kind == "choice":
        if value not in o["choices"]:
            raise ValueError("%s must be %s (got %r)" % (name, o["rangeText"], value))
        return value
    if kind == "switch":
        if not isinstance(value, bool):
            raise ValueError("%s must be True or False (got %r)" % (name, value))
        return "1" if value else "0"
    if kind == "text":
        if not isinstance(value, str) or not value.strip():
            raise ValueError("%s must be a non-empty string: %s (got %r)" % (name, o["rangeText"], value))
        return value
    text = _number_text(name, o, value, s.data["numberGrammar"])
    lo, hi, v = o["min"], s.upper(name), float(value)
    if v < lo or v > hi or (o.get("minOpen") and v == lo) or (o.get("maxOpen") and v == hi):
        raise ValueError("%s must be %s (got %r)" % (name, _range_words(o, hi), value))
    return text


def _range_words(o, hi):
    if hi == o["max"]:
        return o["rangeText"]
    return ("an integer from %s to %s in the explorer" % (o["min"], hi) if o["kind"] == "int"
            else "a number up to %s in the explorer" % hi)


def link(fields):
    """A link's text, '#v=<version>&name=value&…', values percent-encoded as the pages write them."""
    parts = ["v=%d" % schema().link_version] + ["%s=%s" % (k, quote(v, safe="")) for k, v in fields]
    return "#" + "&".join(parts)


def with_view(view):
    """The one-file explorer with `view` (a dict, format attnx-view/1) in its view block."""
    block = '<script type="application/json" id="attnx-view">%s</script>' % json.dumps(view, separators=(",", ":")).replace("<", "\\u003c")
    return _VIEW_BLOCK.sub(lambda m: block, page_text(), count=1)


def head_view(link_text, name, file_bytes, survey=False):
    """A saved view of the explorer: the link and a model's file (its bytes) to open."""
    view = {"format": VIEW_FORMAT, "page": "explorer", "link": link_text,
            "head": {"name": name, "base64": base64.b64encode(file_bytes).decode("ascii")}}
    if survey:
        view["survey"] = True
    return view


def iframe(document, height, title):
    """The document in an <iframe srcdoc> (notebooks sandbox their outputs: a frame of its own)."""
    return ('<iframe srcdoc="%s" title="%s" style="width:100%%;height:%dpx;border:0" allow="fullscreen" '
            'allowfullscreen></iframe>' % (html.escape(document, quote=True), html.escape(title, quote=True), height))
