"""The Python package python/attnx (issue 45), with the standard library's unittest:
    /usr/bin/python3 -m unittest discover -s tests/python        (after npm run build)
Bad input (wrong rank, NaN, L above the page's limit, a layer or head out of range, a ragged list,
tokens of the wrong length, a setting out of the core's range) raises a ValueError naming the
argument before any HTML is made; the limits are the ones the one-file page publishes; every
accepted form (NumPy, nested lists, a tensor, Hugging Face's tuple of layers) gives the file NumPy
reads back, and the core (the native CLI) reads it as it reads NumPy's own np.savez_compressed;
the saved view names the head; the survey's rows are the CLI's.
"""

import base64
import html
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
sys.path.insert(0, os.path.join(ROOT, "python"))

import attnx  # noqa: E402
from attnx import _heads, _page  # noqa: E402

try:
    import numpy as np
except ImportError:
    np = None

CLI = os.path.join(ROOT, "build", "native", "attnx")
HAS_CLI = os.access(CLI, os.X_OK)


def causal(L, layers=2, heads=3):
    """[layers, heads, L, L] nested lists: uniform causal heads, and layer 1, head 2 a previous-token head."""
    out = [[[[1.0 / (i + 1) if j <= i else 0.0 for j in range(L)] for i in range(L)] for _ in range(heads)] for _ in range(layers)]
    prev = [[0.0] * L for _ in range(L)]
    prev[0][0] = 1.0
    for i in range(1, L):
        prev[i][i - 1], prev[i][i] = 0.75, 0.25
    if layers > 1 and heads > 2:
        out[1][2] = prev
    return out


def view_of(document):
    m = re.search(r'<script type="application/json" id="attnx-view">([\s\S]*?)</script>', document)
    return json.loads(m.group(1))


class FakeTensor:
    """What PyTorch's tensors offer the package: detach, cpu, float, numpy."""

    def __init__(self, a):
        self.a, self.shape, self.calls = a, a.shape, []

    def detach(self):
        self.calls.append("detach")
        return self

    def cpu(self):
        self.calls.append("cpu")
        return self

    def float(self):
        self.calls.append("float")
        return FakeTensor(self.a.astype("float32"))

    def numpy(self):
        return self.a


class Refusals(unittest.TestCase):
    """Each bad argument: a ValueError naming it, and no HTML made."""

    def refused(self, expected, fn, /, *args, **kwargs):
        with mock.patch.object(_page, "with_view", side_effect=AssertionError("HTML was made")) as made:
            with self.assertRaisesRegex(ValueError, expected):
                fn(*args, **kwargs)
            self.assertFalse(made.called)

    def test_rank(self):
        self.refused(r"^attention must be shaped \[L, L\], \[H, L, L\] or \[layers, H, L, L\] \(got rank 1", attnx.explorer, [0.5, 0.5])
        self.refused(r"^attention must be shaped .*got rank 5, shape \[1, 1, 1, 2, 2\]", attnx.explorer, [[[[[1, 0], [0, 1]]]]])
        self.refused(r"^attention must be square", attnx.explorer, [[1, 0, 0], [0, 1, 0]])

    def test_ragged(self):
        self.refused(r"^attention is ragged: attention\[1\] has shape \[1\] where attention\[0\] has \[2\]", attnx.explorer, [[1, 0], [1]])
        self.refused(r"^attention must hold numbers: attention\[0\]\[1\] is 'x'", attnx.explorer, [[1, "x"], [0, 1]])

    def test_nan(self):
        self.refused(r"^attention holds NaN at attention\[1\]\[0\]", attnx.explorer, [[1, 0], [float("nan"), 1]])

    def test_values_beyond_float32(self):
        # +Infinity and numbers float32 cannot hold are refused here, not turned into infinities.
        self.refused(r"^attention holds \+Infinity .* at attention\[0\]\[1\]", attnx.explorer, [[1, float("inf")], [0, 1]])
        self.refused(r"^attention holds 1e\+300, beyond float32's range .* at attention\[1\]\[1\]", attnx.explorer, [[1, 0], [0, 1e300]])
        self.refused(r"^attention holds 1000.*at attention\[0\]\[0\], beyond float32's range", attnx.explorer, [[10 ** 400, 0], [0, 1]])

    def test_huge_and_deep_lists_are_refused_before_they_are_walked(self):
        row = [0.0] * 5000
        self.refused(r"^attention has L = 5000 tokens", attnx.explorer, [row] * 5000)
        deep = [0.5]
        for _ in range(5000):
            deep = [deep]
        self.refused(r"^attention must be shaped .*nested deeper than 4", attnx.explorer, deep)

    def test_rule_by_the_core_grammar(self):
        for rule in ["topk:0", "topk:3", "topk:1.5", "mass:0", "mass:2", "threshold:nan", "x", "topk:2;x", "<b>topk:2</b>"]:
            self.refused(r"^rule must be topk:K \(K from 1 to L\)", attnx.explorer, [[1, 0], [0, 1]], rule=rule)

    @unittest.skipIf(np is None, "NumPy is not installed")
    def test_nan_numpy_and_size(self):
        a = np.full((2, 3, 3), 1 / 3, dtype=np.float32)
        a[1, 2, 0] = np.nan
        self.refused(r"^attention holds NaN at attention\[1\]\[2\]\[0\]", attnx.explorer, a)
        self.refused(r"^attention has L = 4097 tokens \(shape \[4097, 4097\]\); the explorer takes L from 2 to 4096", attnx.explorer, np.zeros((4097, 4097), dtype=np.float32))
        self.refused(r"^attention has L = 1 tokens", attnx.explorer, np.ones((1, 1)))
        self.refused(r"^attention must hold numbers \(got an array of dtype", attnx.explorer, np.array([["a", "b"], ["c", "d"]]))

    def test_layer_and_head(self):
        a = causal(4)
        self.refused(r"^layer must be an integer from 0 to 1: the attention has 2 layers \(got 2\)", attnx.explorer, a, layer=2)
        self.refused(r"^layer must be an integer from 0 to 1: .*\(got -1\)", attnx.explorer, a, layer=-1)
        self.refused(r"^head must be an integer from 0 to 2: the attention has 3 heads per layer \(got 3\)", attnx.explorer, a, head=3)
        self.refused(r"^layer must be an integer \(got True\)", attnx.explorer, a, layer=True)
        self.refused(r"^head must be an integer \(got '1'\)", attnx.explorer, a, head="1")
        self.refused(r"^layer must be an integer from 0 to 0: the attention has 1 layers \(got 1\)", attnx.explorer, a[0], layer=1)

    def test_tokens(self):
        a = causal(4)
        self.refused(r"^tokens must have L = 4 entries, one per query and key \(got 3\)", attnx.explorer, a, tokens=["a", "b", "c"])
        self.refused(r"^tokens must be a list of L = 4 strings \(got str\)", attnx.explorer, a, tokens="abcd")
        self.refused(r"^tokens\[2\] must be a string \(got int 3\)", attnx.explorer, a, tokens=["a", "b", 3, "d"])
        self.refused(r"^tokens must have L = 4 entries", attnx.survey, a, tokens=[])

    def test_settings(self):
        a = causal(4)
        self.refused(r"^d must be an integer from 1 to 16384 \(got 0\)", attnx.explorer, a, d=0)
        self.refused(r"^d must be an integer from 1 to 16384 \(got 2\.5\)", attnx.explorer, a, d=2.5)
        self.refused(r"^tau must be a number in \(0, 1\) \(got 1\)", attnx.explorer, a, tau=1)
        self.refused(r"^construction must be one of jl, lp, moment", attnx.explorer, a, construction="best")
        self.refused(r"^unknown setting pattern \(allowed: ", attnx.explorer, a, pattern="window")
        self.refused(r"^unknown setting colour \(allowed: ", attnx.survey, a, colour="red")
        self.refused(r"^softmax must be True or False \(got 1\)", attnx.explorer, a, softmax=1)
        self.refused(r"^rule must be a non-empty string", attnx.explorer, a, rule="")
        self.refused(r"^height must be an integer number of pixels", attnx.explorer, a, height="tall")
        self.refused(r"^name must be a file name", attnx.explorer, a, name="../x.npz")
        self.refused(r"^cli must be the path of the attnx command-line tool", attnx.survey, a, cli="/nonexistent/attnx")

    @unittest.skipIf(np is None, "NumPy is not installed")
    def test_batches(self):
        layers = tuple(np.full((2, 3, 4, 4), 0.25, dtype=np.float32) for _ in range(2))
        self.refused(r"^attention\[0\] has a batch of 2 examples \(shape \[2, 3, 4, 4\]\)", attnx.explorer, layers)

    def test_limits_are_the_pages(self):
        """The limits come from the schema the one-file page publishes: a page that says maxL = 8."""
        text = _page.page_text()
        m = re.search(r'(<script type="application/json" id="attnx-schema">)([\s\S]*?)(</script>)', text)
        data = json.loads(m.group(2))
        data["pageLimits"]["maxL"] = 8
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "attnx.html")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text[:m.start(2)] + json.dumps(data) + text[m.end(2):])
            with mock.patch.object(_page, "html_path", return_value=path):
                _page._cache.clear()
                try:
                    self.refused(r"^attention has L = 16 tokens \(shape \[16, 16\]\); the explorer takes L from 2 to 8", attnx.explorer, causal(16, 1, 1)[0][0])
                finally:
                    _page._cache.clear()


def load_npz(data):
    z = np.load(io.BytesIO(data))
    return {k: z[k] for k in z.files}


@unittest.skipIf(np is None, "NumPy is not installed")
class Forms(unittest.TestCase):
    """Every accepted form gives the same file, which NumPy reads back."""

    def head_file(self, view):
        return base64.b64decode(view_of(view.html)["head"]["base64"])

    def test_forms_agree(self):
        a = np.asarray(causal(6), dtype=np.float32)
        want = a.tobytes()
        forms = {"numpy": a, "float64": a.astype(np.float64), "lists": causal(6), "tensor": FakeTensor(a.astype(np.float16)),
                 "hugging face": tuple(FakeTensor(a[i:i + 1]) for i in range(2)), "tuple of arrays": tuple(a[i] for i in range(2))}
        for name, x in forms.items():
            with self.subTest(name):
                files = load_npz(self.head_file(attnx.explorer(x, layer=1, head=2)))
                self.assertEqual(files["attention"].dtype, np.dtype("<f4"))
                self.assertEqual(files["attention"].shape, (2, 3, 6, 6))
                if name != "tensor":
                    self.assertEqual(files["attention"].tobytes(), want)
        t = FakeTensor(a)
        attnx.explorer(t)
        self.assertEqual(t.calls[:3], ["detach", "cpu", "float"])

    def test_tokens_round_trip(self):
        tokens = ["<s>", "The", " cat", "é", "😀", ""]
        files = load_npz(self.head_file(attnx.explorer(causal(6), tokens=tokens)))
        self.assertEqual(files["tokens"].tolist(), tokens)
        self.assertEqual(sorted(files), ["attention", "tokens"])
        self.assertEqual(sorted(load_npz(self.head_file(attnx.explorer(causal(6))))), ["attention"])


class Views(unittest.TestCase):
    def test_view_names_the_head(self):
        v = attnx.explorer(causal(8), tokens=[str(i) for i in range(8)], layer=1, head=2, rule="topk:1", d=512, eps=0.5)
        view = view_of(v.html)
        self.assertEqual((view["format"], view["page"]), ("attnx-view/1", "explorer"))
        schema = _page.schema()
        self.assertEqual(view["link"], "#v=%d&pattern=%s&L=8&layer=1&head=2&rule=topk%%3A1&softmax=0&d=512&eps=0.5"
                         % (schema.link_version, schema.custom_family))
        self.assertEqual(view["head"]["name"], "attention.npz")
        self.assertNotIn("survey", view)
        self.assertEqual(v.html.count('id="attnx-view"'), 1)
        self.assertEqual(v.filename, "attnx-layer1-head2-L8.html")
        frame = v._repr_html_()
        self.assertTrue(frame.startswith('<iframe srcdoc="'))
        self.assertEqual(html.unescape(re.search(r'srcdoc="([^"]*)"', frame).group(1)), v.html)
        with tempfile.TemporaryDirectory() as tmp:
            path = v.save(os.path.join(tmp, "view.html"))
            with open(path, encoding="utf-8") as f:
                self.assertEqual(f.read(), v.html)

    def test_survey_view(self):
        s = attnx.survey(causal(8), rule="topk:1", seed=3)
        view = view_of(s.html)
        self.assertTrue(view["survey"])
        self.assertIn("&rule=topk%3A1&softmax=0&seed=3", view["link"])

    def test_survey_needs_the_cli_for_rows(self):
        with mock.patch.dict(os.environ, {"PATH": "", "ATTNX_CLI": ""}):
            s = attnx.survey(causal(4))
            with self.assertRaisesRegex(RuntimeError, r"need the attnx command-line tool"):
                s.rows


@unittest.skipUnless(HAS_CLI and np is not None, "needs build/native/attnx (npm run build) and NumPy")
class Core(unittest.TestCase):
    """The core reads the package's file as it reads NumPy's own."""

    def cli(self, *args):
        r = subprocess.run([CLI] + list(args), capture_output=True, text=True, check=True)
        return json.loads(r.stdout)

    def test_the_core_reads_it_as_numpys(self):
        a = np.asarray(causal(12), dtype=np.float32)
        tokens = ["t%d" % i for i in range(12)]
        v = attnx.explorer(a, tokens=tokens, layer=1, head=2)
        with tempfile.TemporaryDirectory() as tmp:
            ours, numpys = os.path.join(tmp, "ours.npz"), os.path.join(tmp, "numpy.npz")
            with open(ours, "wb") as f:
                f.write(base64.b64decode(view_of(v.html)["head"]["base64"]))
            np.savez_compressed(numpys, attention=a, tokens=np.array(tokens))
            got, want = (self.cli("import", p, "--layer", "1", "--head", "2") for p in (ours, numpys))
        self.assertEqual(got["head"], want["head"])
        self.assertEqual(got["tokens"], 12)
        self.assertEqual(got["params"]["shape"], [2, 3, 12, 12])

    def test_survey_rows_are_the_clis(self):
        a = np.asarray(causal(12), dtype=np.float32)
        s = attnx.survey(a, rule="topk:1", eps=0.5, cli=CLI)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "a.npy")
            np.save(path, a)
            want = self.cli("import", path, "--all", "--format", "json", "--rule", "topk:1", "--eps", "0.5")
        self.assertEqual(s.rows, want["heads"])
        self.assertEqual(len(s.rows), 6)
        self.assertEqual(s.result["params"]["eps"], 0.5)


class WithoutNumPy(unittest.TestCase):
    def test_lists_without_numpy(self):
        code = ("import sys; sys.modules['numpy'] = None; sys.path.insert(0, %r); import attnx, json, re, base64, zipfile, io\n"
                "v = attnx.explorer([[1, 0], [0.5, 0.5]], tokens=['a', 'b'])\n"
                "m = re.search(r'id=\"attnx-view\">(.*?)</script>', v.html)\n"
                "z = zipfile.ZipFile(io.BytesIO(base64.b64decode(json.loads(m.group(1))['head']['base64'])))\n"
                "print(sorted(z.namelist()))\n"
                "try:\n  attnx.explorer([[1, 0], [0.5]])\nexcept ValueError as e:\n  print(e)\n") % os.path.join(ROOT, "python")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        self.assertEqual(r.stdout.splitlines(), ["['attention.npy', 'tokens.npy']",
                                                 "attention is ragged: attention[1] has shape [1] where attention[0] has [2]"])


if __name__ == "__main__":
    unittest.main()
