"""Attention handed to attnx, checked and turned into the file the core reads.

Accepted: a NumPy array or nested lists shaped [L, L], [H, L, L] or [layers, H, L, L]; a tuple or
list of per-layer arrays as Hugging Face returns them (each [1, H, L, L], or [H, L, L]); anything
with ``.detach().cpu().numpy()`` (PyTorch: cast to float32 first, since NumPy has no bfloat16) or
``.numpy()``. Tokens are optional: L strings. Every refusal is a ValueError that names the
argument, raised before any HTML is made. Nothing is computed here: the values are checked (no
NaN) and copied as little-endian float32 into an .npz file (attention.npy and tokens.npy, as
np.savez_compressed writes it), which the explorer opens as if the user had opened it. The
limits (L from 2 to 4096, the largest file a saved view carries) are the core's and the page's,
read from the schema the one-file page publishes (_page.schema).
"""

import io
import math
import operator
import struct
import sys
import zipfile
from array import array

try:
    import numpy as _np
except ImportError:  # NumPy is optional
    _np = None


class Head:
    """Checked attention: ``shape`` (2 to 4 axes, the last two L by L), ``data`` (the values as
    little-endian float32 bytes, C order), ``tokens`` (a list of L strings, or None)."""

    def __init__(self, shape, data, tokens):
        self.shape, self.data, self.tokens = tuple(shape), data, tokens

    @property
    def L(self):
        return self.shape[-1]

    @property
    def layers(self):
        return self.shape[0] if len(self.shape) == 4 else 1

    @property
    def heads(self):
        return self.shape[-3] if len(self.shape) >= 3 else 1


def _shape_text(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _rank(x):
    """The number of axes of an array or tensor x (None: not one; a NumPy scalar has 0)."""
    shape = getattr(x, "shape", None)
    if shape is None:
        return None
    try:
        return len(tuple(shape))
    except TypeError:
        return None


def _from_tensor(x):
    """A framework's tensor as a NumPy array (or nested lists without NumPy)."""
    if hasattr(x, "detach"):
        x = x.detach()
        if hasattr(x, "cpu"):
            x = x.cpu()
        if hasattr(x, "float"):
            x = x.float()
    if _np is not None and isinstance(x, _np.ndarray):
        return x
    if hasattr(x, "numpy"):
        return x.numpy()
    if _np is not None:
        return _np.asarray(x)
    if hasattr(x, "tolist"):
        return x.tolist()
    raise ValueError("attention must be an array, nested lists or a tensor (got %s)" % type(x).__name__)


def _list_shape(x, where="attention"):
    """The shape of nested lists x; ValueError naming the first ragged or non-numeric entry."""
    if not isinstance(x, (list, tuple)):
        return ()
    if len(x) == 0:
        raise ValueError("%s is empty" % where)
    first = _list_shape(x[0], where + "[0]")
    for i, item in enumerate(x[1:], 1):
        here = _list_shape(item, "%s[%d]" % (where, i))
        if here != first:
            raise ValueError("attention is ragged: %s has shape %s where %s[0] has %s"
                             % ("%s[%d]" % (where, i), _shape_text(here), where, _shape_text(first)))
    return (len(x),) + first


FLOAT32_MAX = 3.4028234663852886e38


def _float32_problem(x):
    """Why the float x cannot be handed over as float32 (None: it can). -Infinity is a masked
    score (the core reads it with softmax); +Infinity and finite values beyond float32's range
    (which would become infinities) are refused here."""
    if math.isnan(x):
        return "NaN"
    if x == math.inf:
        return "+Infinity (probabilities and scores are finite; -Infinity masks a score)"
    if math.isfinite(x) and abs(x) > FLOAT32_MAX:
        return "%r, beyond float32's range (the file the explorer reads holds float32)" % x
    return None


def _flatten(x, out, where="attention"):
    if isinstance(x, (list, tuple)):
        for i, item in enumerate(x):
            _flatten(item, out, "%s[%d]" % (where, i))
        return
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        if _np is not None and isinstance(x, _np.number) and not isinstance(x, (_np.bool_, _np.complexfloating)):
            x = float(x)
        else:
            raise ValueError("attention must hold numbers: %s is %r" % (where, x))
    try:
        x = float(x)
    except OverflowError:
        raise ValueError("attention holds %s at %s, beyond float32's range" % (str(x)[:20] + "...", where)) from None
    problem = _float32_problem(x)
    if problem:
        raise ValueError("attention holds %s at %s" % (problem, where))
    out.append(x)


def _list_values(x):
    values = array("f")
    _flatten(x, values)
    if sys.byteorder == "big":
        values.byteswap()
    return values.tobytes()


def _numpy_values(a):
    if a.dtype.kind == "f":
        bad = _np.isnan(a) | (a == _np.inf) | (_np.isfinite(a) & (_np.abs(a.astype("f8")) > FLOAT32_MAX))
        if bool(bad.any()):
            where = tuple(int(i) for i in _np.argwhere(bad)[0])
            raise ValueError("attention holds %s at attention%s" % (_float32_problem(float(a[where])), "".join("[%d]" % i for i in where)))
    return _np.ascontiguousarray(a, dtype="<f4").tobytes()


def _check_rank(shape):
    if len(shape) not in (2, 3, 4):
        raise ValueError("attention must be shaped [L, L], [H, L, L] or [layers, H, L, L] (got rank %d, shape %s); "
                         "for a batch, pass one example, e.g. attention[0]" % (len(shape), _shape_text(shape)))
    if 0 in shape:
        raise ValueError("attention has an empty axis (shape %s)" % _shape_text(shape))


def _per_layer(seq):
    """A tuple of per-layer arrays (Hugging Face: [1, H, L, L] each) as one [layers, H, L, L] array."""
    layers = []
    for i, item in enumerate(seq):
        a = _from_tensor(item)
        shape = tuple(a.shape) if hasattr(a, "shape") else _list_shape(a, "attention[%d]" % i)
        if len(shape) == 4 and shape[0] != 1:
            raise ValueError("attention[%d] has a batch of %d examples (shape %s); pass one example, "
                             "e.g. tuple(a[0:1] for a in outputs.attentions)" % (i, shape[0], _shape_text(shape)))
        if len(shape) not in (3, 4):
            raise ValueError("attention[%d] must be one layer, [1, H, L, L] or [H, L, L] (got shape %s)" % (i, _shape_text(shape)))
        layers.append(a[0] if len(shape) == 4 else a)
    if _np is not None:
        shapes = {tuple(_np.shape(a)) for a in layers}
        if len(shapes) > 1:
            raise ValueError("attention's layers differ in shape: %s" % ", ".join(_shape_text(s) for s in sorted(shapes)))
        return _np.stack([_np.asarray(a) for a in layers])
    return [a.tolist() if hasattr(a, "tolist") else a for a in layers]


def _nominal_shape(x):
    """The shape nested lists x claim along their first entries (x, x[0], x[0][0], ...; at most
    five axes: deeper is refused by rank), found without walking them all, so that a rank or a
    size out of range is refused at once (a 5000 x 5000 list is not walked, a list nested a
    thousand deep does not exhaust the stack)."""
    shape = []
    while isinstance(x, (list, tuple)) and len(shape) < 5:
        shape.append(len(x))
        if not x:
            break
        x = x[0]
    if isinstance(x, (list, tuple)):
        raise ValueError("attention must be shaped [L, L], [H, L, L] or [layers, H, L, L] (got lists nested deeper than 4)")
    return tuple(shape)


def _check_size(shape, schema):
    L, lo, hi = shape[-1], schema.option("L")["min"], schema.max_L
    if shape[-2] != L:
        raise ValueError("attention must be square in its last two axes, queries by keys (got shape %s)" % _shape_text(shape))
    if L < lo or L > hi:
        raise ValueError("attention has L = %d tokens (shape %s); the explorer takes L from %d to %d"
                         % (L, _shape_text(shape), lo, hi))


def _check_tokens(tokens, L):
    if tokens is None:
        return None
    if isinstance(tokens, (str, bytes)) or not hasattr(tokens, "__len__"):
        raise ValueError("tokens must be a list of L = %d strings (got %s)" % (L, type(tokens).__name__))
    tokens = list(tokens)
    if len(tokens) != L:
        raise ValueError("tokens must have L = %d entries, one per query and key (got %d)" % (L, len(tokens)))
    for i, t in enumerate(tokens):
        if not isinstance(t, str):
            raise ValueError("tokens[%d] must be a string (got %s %r)" % (i, type(t).__name__, t))
    return tokens


def read_attention(attention, tokens, schema):
    """The checked Head of what the caller passed (see the top of this module). The shape is
    checked before any value is read or copied."""
    x = attention
    if isinstance(x, (list, tuple)) and len(x) > 0 and all((_rank(e) or 0) >= 3 for e in x):
        x = _per_layer(x)  # a tuple of layers, as Hugging Face returns them
    elif isinstance(x, (list, tuple)):
        x = [e.tolist() if (_rank(e) or 0) >= 1 and hasattr(e, "tolist") else e for e in x]
    elif _rank(x) is not None or hasattr(x, "detach"):
        x = _from_tensor(x)
    if _np is not None and isinstance(x, _np.ndarray):
        if x.dtype.kind not in "fiu":
            raise ValueError("attention must hold numbers (got an array of dtype %s)" % x.dtype)
        shape, values = tuple(int(n) for n in x.shape), _numpy_values
    elif isinstance(x, (list, tuple)):
        nominal = _nominal_shape(x)
        _check_rank(nominal)
        _check_size(nominal, schema)
        shape, values = _list_shape(x), _list_values
    else:
        raise ValueError("attention must be an array, nested lists or a tensor (got %s)" % type(attention).__name__)
    _check_rank(shape)
    _check_size(shape, schema)
    tokens = _check_tokens(tokens, shape[-1])
    return Head(shape, values(x), tokens)


def index_in(name, value, count, what):
    """value as an index from 0 to count - 1; ValueError naming `name` otherwise."""
    try:
        if isinstance(value, bool):
            raise TypeError
        i = operator.index(value)
    except TypeError:
        raise ValueError("%s must be an integer (got %r)" % (name, value)) from None
    if not 0 <= i < count:
        raise ValueError("%s must be an integer from 0 to %d: the attention has %d %s (got %d)" % (name, count - 1, count, what, i))
    return i


def _npy(descr, shape, data):
    """An .npy file (format 1.0) of C-order data."""
    dims = "(%s)" % (", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else ""))
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, dims)
    pad = 64 - (10 + len(header) + 1) % 64
    header = (header + " " * (pad % 64) + "\n").encode("latin1")
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + data


def _tokens_npy(tokens):
    width = max(1, max(len(t) for t in tokens))
    data = b"".join(t.encode("utf-32-le").ljust(4 * width, b"\0") for t in tokens)
    return _npy("<U%d" % width, (len(tokens),), data)


def npz_bytes(head):
    """The Head as an .npz file: attention.npy (float32) and, with tokens, tokens.npy; deflated."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("attention.npy", _npy("<f4", head.shape, head.data))
        if head.tokens is not None:
            z.writestr("tokens.npy", _tokens_npy(head.tokens))
    return out.getvalue()
