"""attnx in a notebook: a model's attention head in the attnx explorer, in one line.

    import attnx
    attnx.explorer(outputs.attentions, tokens=tokens, layer=5, head=3, rule="topk:2")

shows the one-file explorer (the C++ core compiled to WebAssembly, all of it inside one HTML file)
with that head, made sparse by the rule, as the target A: the achieved attention M of fixed-weight
self-attention, the verdict, Find the minimal d. ``.save("view.html")`` writes the same view as one
file that opens from disk, offline. ``attnx.survey(outputs.attentions)`` surveys every head. This
package has no numerics of its own: it checks its arguments (ValueError naming the argument) and
hands the attention to the page, whose core computes everything. Standard library only; NumPy is
used when it is there. docs/notebook.md in the attnx checkout has the details.
"""

from ._view import Survey, View, explorer, survey

__version__ = "0.1.0"
__all__ = ["explorer", "survey", "View", "Survey", "__version__"]
