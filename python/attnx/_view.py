"""attnx.explorer and attnx.survey: a model's attention in the one-file explorer.

Both check their arguments first (ValueError naming the argument, before any HTML is made), write
the attention as an .npz file and bake it, with a link naming the head, the rule and the
explorer's settings, into the one-file explorer as a saved view. The explorer opens that file on
load exactly as if the user had opened it: every number shown is the core's, computed in the
browser. The survey's numbers as data come from the core too: the native command-line tool
(``attnx import FILE --all``), when it is installed.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile

from . import _heads, _page


def _settings_fields(settings, schema):
    allowed = schema.settings()
    fields = []
    for name in sorted(settings):
        if name not in allowed:
            raise ValueError("unknown setting %s (allowed: %s)" % (name, ", ".join(allowed)))
        fields.append((name, _page.setting_text(name, settings[name], schema)))
    return fields


def _head_fields(h, layer, head, rule, softmax, schema):
    """The link fields of head `head` of layer `layer` of Head h: the target is the head (a custom
    pattern of h's L), made sparse by the rule."""
    return [("pattern", schema.custom_family), ("L", str(h.L)),
            ("layer", str(_heads.index_in("layer", layer, h.layers, "layers"))),
            ("head", str(_heads.index_in("head", head, h.heads, "heads per layer"))),
            ("rule", _rule_text(rule, h.L, schema)), ("softmax", _page.setting_text("softmax", softmax, schema))]


def _rule_text(rule, L, schema):
    """The rule's link text, checked by the core's rule kinds (schema ruleKinds: each kind's name,
    whether its value is an integer, its range, "L" for the head's length) and number grammar;
    ValueError naming rule otherwise (the option's rangeText)."""
    text = _page.setting_text("rule", rule, schema)
    name, _, value = text.partition(":")
    kind = next((k for k in schema.data["ruleKinds"] if k["name"] == name), None)
    ok = False
    if kind is not None:
        grammar = schema.data["numberGrammar"]["integer" if kind["integer"] else "real"]
        if re.fullmatch(grammar.strip("^$"), value):
            v, top = float(value), (L if kind["max"] == "L" else kind["max"])
            ok = (v > kind["min"] if kind["minOpen"] else v >= kind["min"]) and v <= top
    if not ok:
        raise ValueError("rule must be %s (got %r; L = %d)" % (schema.option("rule")["rangeText"], rule, L))
    return text


def _name_text(name):
    if not isinstance(name, str) or not name.strip() or len(name) > 200 or any(c in name for c in "/\\\0"):
        raise ValueError("name must be a file name (no folders) of 1 to 200 characters (got %r)" % (name,))
    return name


def _file_bytes(head, schema):
    data = _heads.npz_bytes(head)
    if len(data) > schema.max_saved_bytes:
        raise ValueError("attention makes a file of %d bytes; a saved view carries at most %d: pass fewer layers "
                         "(e.g. outputs.attentions[5:6]) or fewer tokens" % (len(data), schema.max_saved_bytes))
    return data


class View:
    """The one-file explorer with a saved view. ``html`` is the whole file; in a notebook it shows
    in a frame (``_repr_html_``); ``save(path)`` writes it: it opens from disk, offline."""

    kind = "explorer"

    def __init__(self, document, name, height, title):
        self.html, self.filename, self.height, self.title = document, name, height, title

    def _repr_html_(self):
        return _page.iframe(self.html, self.height, self.title)

    def save(self, path=None):
        """Writes the file (default: the view's name in the current folder); returns its path."""
        path = os.fspath(path) if path is not None else self.filename
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html)
        return path

    def __repr__(self):
        return "<attnx %s: %s, %d bytes>" % (self.kind, self.filename, len(self.html.encode("utf-8")))


def _height(height):
    if isinstance(height, bool) or not isinstance(height, int) or not 200 <= height <= 10000:
        raise ValueError("height must be an integer number of pixels from 200 to 10000 (got %r)" % (height,))
    return height


def explorer(attention, tokens=None, layer=0, head=0, rule="topk:2", softmax=False, name="attention.npz", height=860, **settings):
    """The one-file explorer with head `head` of layer `layer` of `attention` as its target.

    attention: [L, L], [H, L, L] or [layers, H, L, L] (NumPy, nested lists, a tensor, or a tuple of
    per-layer [1, H, L, L] arrays as Hugging Face returns them); tokens: L strings (optional);
    rule, softmax: how each row is made sparse (the core's rules: topk:K, threshold:T, mass:P);
    name: the file name the explorer shows; height: the frame's height in a notebook; settings:
    the explorer's other link settings (d, construction, eps, tau, seed, ...). Returns a View.
    """
    schema = _page.schema()
    h = _heads.read_attention(attention, tokens, schema)
    fields = _head_fields(h, layer, head, rule, softmax, schema) + _settings_fields(settings, schema)
    name, height = _name_text(name), _height(height)
    data = _file_bytes(h, schema)
    document = _page.with_view(_page.head_view(_page.link(fields), name, data))
    at = dict(fields)
    return View(document, "attnx-layer%s-head%s-L%d.html" % (at["layer"], at["head"], h.L), height,
                "attnx explorer: %s, layer %s, head %s" % (name, at["layer"], at["head"]))


class Survey(View):
    """The explorer surveying every head (shown in a notebook, computed in the browser), and the
    same survey as data from the native tool: ``rows`` (one dict per head, as
    ``attnx import FILE --all --format json`` gives them) and ``result`` (the whole record)."""

    kind = "survey"

    def __init__(self, document, name, height, title, npz, args, cli):
        super().__init__(document, name, height, title)
        self._npz, self._args, self._cli, self._result = npz, args, cli, None

    @property
    def result(self):
        if self._result is None:
            self._result = _run_survey(self._cli, self._npz, self._args)
        return self._result

    @property
    def rows(self):
        return self.result["heads"]


def _find_cli(cli):
    if cli is not None:
        if not (isinstance(cli, (str, os.PathLike)) and os.path.isfile(cli) and os.access(cli, os.X_OK)):
            raise ValueError("cli must be the path of the attnx command-line tool (got %r)" % (cli,))
        return os.fspath(cli)
    return os.environ.get("ATTNX_CLI") or shutil.which("attnx")


def _run_survey(cli, npz, args):
    if not cli:
        raise RuntimeError("the survey's numbers as data need the attnx command-line tool (npm run build makes "
                           "build/native/attnx; put it on PATH, set ATTNX_CLI or pass cli=); the survey shown in the "
                           "notebook computes in the browser without it")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "attention.npz")
        with open(path, "wb") as f:
            f.write(npz)
        r = subprocess.run([cli, "import", path, "--all", "--format", "json"] + args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("attnx import --all failed: %s" % r.stderr.strip())
    return json.loads(r.stdout)


def survey(attention, tokens=None, rule="topk:2", softmax=False, name="attention.npz", height=860, cli=None, **settings):
    """Every head of `attention` surveyed by the core: archetype, k, kept mass, minimal d of lp and
    jl. Returns a Survey: in a notebook, the explorer surveying the heads (computed in the browser);
    ``rows``, the same numbers as data from the native tool (found at `cli`, $ATTNX_CLI or on
    PATH). settings: eps, tau and seed (and the explorer's other link settings)."""
    schema = _page.schema()
    h = _heads.read_attention(attention, tokens, schema)
    fields = _head_fields(h, 0, 0, rule, softmax, schema) + _settings_fields(settings, schema)
    name, height, cli = _name_text(name), _height(height), _find_cli(cli)
    data = _file_bytes(h, schema)
    document = _page.with_view(_page.head_view(_page.link(fields), name, data, survey=True))
    args = ["--rule", rule] + (["--softmax"] if softmax else [])
    args += sum((["--%s" % k, v] for k, v in fields if k in ("eps", "tau", "seed")), [])
    return Survey(document, "attnx-survey-L%d.html" % h.L, height, "attnx survey of every head of %s" % name, data, args, cli)
