"""The build backend (PEP 517) of the attnx Python package: standard library only, so that
``pip install ./python`` needs no package index. The wheel holds the package (python/attnx/) and
the one-file explorer the package shows (dist/attnx.html, which ``npm run build`` writes; a copy
named by $ATTNX_HTML is taken instead when set). An editable install (``pip install -e``) puts
python/ on the path, and the package finds dist/attnx.html in the checkout.
"""

import base64
import hashlib
import os
import zipfile

NAME = "attnx"
HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, os.pardir, "attnx")
CHECKOUT_HTML = os.path.join(HERE, os.pardir, os.pardir, "dist", "attnx.html")
TAG = "py3-none-any"


def _version():
    with open(os.path.join(PACKAGE, "__init__.py"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("__version__"):
                return line.split("=", 1)[1].strip().strip("\"'")
    raise RuntimeError("attnx/__init__.py has no __version__")


def _metadata():
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n"
            "Summary: attnx in a notebook: a model's attention head in the attnx explorer (fixed-weight self-attention, d = O(log L))\n"
            "Requires-Python: >=3.8\nProvides-Extra: numpy\nRequires-Dist: numpy; extra == \"numpy\"\n"
            "Description-Content-Type: text/markdown\n\nSee docs/notebook.md in the attnx checkout.\n" % (NAME, _version()))


def _wheel_file():
    return "Wheel-Version: 1.0\nGenerator: attnx_backend\nRoot-Is-Purelib: true\nTag: %s\n" % TAG


def _dist_info():
    return "%s-%s.dist-info" % (NAME, _version())


def _html():
    path = os.environ.get("ATTNX_HTML") or CHECKOUT_HTML
    if not os.path.isfile(path):
        raise RuntimeError("%s is missing: run `npm run build` in the attnx checkout first (it writes dist/attnx.html)"
                           % os.path.normpath(path))
    with open(path, "rb") as f:
        return f.read()


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def _write_wheel(directory, files):
    """Writes the wheel of `files` ([(archive name, bytes)]) with its dist-info; returns its name."""
    info = _dist_info()
    files = files + [(info + "/METADATA", _metadata().encode()), (info + "/WHEEL", _wheel_file().encode()),
                     (info + "/top_level.txt", (NAME + "\n").encode())]
    record = "\n".join([_record_line(n, d) for n, d in files] + [info + "/RECORD,,"]) + "\n"
    name = "%s-%s-%s.whl" % (NAME, _version(), TAG)
    with zipfile.ZipFile(os.path.join(directory, name), "w", compression=zipfile.ZIP_DEFLATED) as z:
        for n, d in files + [(info + "/RECORD", record.encode())]:
            z.writestr(zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0)), d, compress_type=zipfile.ZIP_DEFLATED)
    return name


def _package_files():
    out = []
    for entry in sorted(os.listdir(PACKAGE)):
        path = os.path.join(PACKAGE, entry)
        if entry.endswith(".py") and os.path.isfile(path):
            with open(path, "rb") as f:
                out.append(("%s/%s" % (NAME, entry), f.read()))
    return out


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = os.path.join(metadata_directory, _dist_info())
    os.makedirs(info, exist_ok=True)
    for name, text in (("METADATA", _metadata()), ("WHEEL", _wheel_file()), ("top_level.txt", NAME + "\n")):
        with open(os.path.join(info, name), "w", encoding="utf-8") as f:
            f.write(text)
    return _dist_info()


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, _package_files() + [(NAME + "/attnx.html", _html())])


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    pth = (os.path.abspath(os.path.join(HERE, os.pardir)) + "\n").encode()
    return _write_wheel(wheel_directory, [("_attnx_editable.pth", pth)])
