"""The one home of module blame's verdicts: each is declared here once, with everything the
places that count, print or draw verdicts need (its label, the module it blames, what fixing
that module means, its report colour, whether it is counted everywhere or only where a query
got it). Registry order is display order: blame counts, ``metrics.json``, ``summary.md``, the
report's tables, bars and filters and the diagnosis all read :data:`REGISTRY` through the helpers
below, so adding a verdict is one :class:`VerdictSpec` here plus the rule that assigns it
(``ragdx.evaluate.protocol``, ``abstention`` or ``conversations``).

A verdict declared ``always=False`` (history handling, which only a dataset with conversations
can get) is counted and shown only where some query got it, so that every other evaluation,
its ``metrics.json`` and its report are what they were before the verdict existed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["CORRECT", "MODULE", "UNSURE_KIND", "UNJUDGED", "REGISTRY", "VerdictSpec", "register", "unregister",
           "shown", "labels", "colours", "module_verdicts", "unsure_verdicts", "blamed_modules"]

#: the kinds of verdict: right, one module blamed, several modules possible, no verdict (the judge failed)
CORRECT, MODULE, UNSURE_KIND, UNJUDGED = "correct", "module", "unsure", "unjudged"


@dataclass(frozen=True, slots=True)
class VerdictSpec:
    """One verdict: ``name`` (the string in ``blame.jsonl`` and the key in ``metrics.json``),
    ``label`` (how the report and ``summary.md`` name it), ``kind`` (one of :data:`CORRECT`,
    :data:`MODULE`, :data:`UNSURE_KIND`, :data:`UNJUDGED`), ``colour`` (the report's badge, bar
    and legend colour); for a :data:`MODULE` verdict, ``module`` (the diagnosis's name of the
    module it blames) and ``fix`` (what fixing it means, the diagnosis's headline); ``always``:
    counted with its zeros in every blame table (False: only where a query got it)."""

    name: str
    label: str
    kind: str
    colour: str
    module: str = ""
    fix: str = ""
    always: bool = True


#: every verdict, in display order (``unjudged`` last: it is counted beside the others)
REGISTRY: dict[str, VerdictSpec] = {}


def register(spec: VerdictSpec, *, before: str | None = None) -> VerdictSpec:
    """Declare ``spec`` (at the end, or just before the verdict named ``before``)."""
    if spec.kind not in (CORRECT, MODULE, UNSURE_KIND, UNJUDGED):
        raise ValueError(f"verdict {spec.name!r}: kind {spec.kind!r} is none of correct, module, unsure, unjudged")
    if spec.kind == MODULE and not (spec.module and spec.fix):
        raise ValueError(f"verdict {spec.name!r}: a module verdict names its module and its fix")
    items = [(k, v) for k, v in REGISTRY.items() if k != spec.name]
    at = next((i for i, (k, _) in enumerate(items) if k == before), len(items))
    items.insert(at, (spec.name, spec))
    REGISTRY.clear()
    REGISTRY.update(items)
    return spec


def unregister(name: str) -> None:
    """Remove a verdict (a test's temporary one)."""
    REGISTRY.pop(name, None)


def shown(present: Iterable[str | None] = ()) -> tuple[str, ...]:
    """The verdicts a blame table counts, in display order: every ``always`` verdict and each
    other one in ``present`` (the verdicts some query got); ``unjudged`` is counted beside them."""
    got = set(present)
    return tuple(k for k, v in REGISTRY.items() if v.kind != UNJUDGED and (v.always or k in got))


def labels() -> dict[str, str]:
    """Verdict name -> how it is named wherever it is shown."""
    return {k: v.label for k, v in REGISTRY.items()}


def colours() -> dict[str, str]:
    """Verdict name -> the report's colour for it."""
    return {k: v.colour for k, v in REGISTRY.items()}


def module_verdicts(*, always: bool | None = None) -> tuple[str, ...]:
    """The confident verdicts: ``correct`` and those blaming one module (only the ``always`` ones,
    or only the others, when ``always`` is given)."""
    return tuple(k for k, v in REGISTRY.items() if v.kind in (CORRECT, MODULE)
                 and (always is None or v.always == always))


def unsure_verdicts() -> tuple[str, ...]:
    """The verdicts that say ragdx cannot tell which of two (or more) modules failed."""
    return tuple(k for k, v in REGISTRY.items() if v.kind == UNSURE_KIND)


def blamed_modules(present: Iterable[str | None] = ()) -> tuple[tuple[str, str], ...]:
    """(verdict, module) for each verdict blaming one module that a diagnosis weighs: the
    ``always`` ones, and each other one in ``present``."""
    got = set(present)
    return tuple((k, v.module) for k, v in REGISTRY.items() if v.kind == MODULE and (v.always or k in got))


for _spec in (
    VerdictSpec("correct", "correct", CORRECT, "#2e7d32"),
    VerdictSpec("kb_gap", "knowledge-base gap", MODULE, "#7b5ea7", "knowledge base",
                "add the facts it leaves out"),
    VerdictSpec("retrieval_failure", "retrieval failure", MODULE, "#e08a00", "retriever",
                "the documents stating the facts exist but are not retrieved"),
    VerdictSpec("lm_failure", "LM failure", MODULE, "#c62828", "language model",
                "the documents stating the facts are retrieved and the answer is still wrong"),
    # a follow-up of a conversation whose standalone question retrieved the evidence
    # (ragdx.evaluate.conversations): only a dataset with conversations can get it
    VerdictSpec("history_failure", "history-handling failure", MODULE, "#00838f", "history handling",
                "the follow-ups' evidence is found for the question written out in full, not for the follow-up as "
                "the system read the conversation", always=False),
    VerdictSpec("kb_or_retrieval", "knowledge base or retriever (unsure)", UNSURE_KIND, "#b39ddb"),
    VerdictSpec("retrieval_or_lm", "retriever or LM (unsure)", UNSURE_KIND, "#ffcc80"),
    VerdictSpec("undetermined", "undetermined (unsure)", UNSURE_KIND, "#9e9e9e"),
    VerdictSpec("unjudged", "unjudged (judge failed)", UNJUDGED, "#777"),
):
    register(_spec)
