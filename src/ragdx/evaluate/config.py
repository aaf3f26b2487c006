"""How an evaluation is done, as one typed, validated object: the judge (name, answer sets, LLM),
the retrieval rule, the gap rule, the bootstrap, and what else ``evaluate`` / ``compare`` /
``judge-agreement`` / ``report`` are told.

It is built once where a user hands the choices over (the CLI's commands, ``ragdx.evaluate`` and
``ragdx.compare``) and passed down whole, so a misspelt rule or judge fails there, before a run is
read or one answer judged (an LLM judge's calls are paid), and the functions below the face take
one object instead of relaying a dozen keywords each. :meth:`EvaluationConfig.to_dict` is what an
evaluation's ``manifest.json`` records, and :meth:`EvaluationConfig.from_dict` reads it back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ragdx.errors import RagdxError

if TYPE_CHECKING:  # pragma: no cover
    from ragdx.evaluate.judges import Judge, VerdictCache


class RetrievalRule(StrEnum):
    """The one rule retrieval is judged by (its words: :data:`RULE_WORDS`)."""

    EVIDENCE = "evidence"  # every fact the answer needs stated by a retrieved document
    ALL = "all"            # every gold document retrieved
    ANY = "any"            # at least one gold document retrieved (a hit)

    @property
    def words(self) -> str:
        return RULE_WORDS[self.value]


#: how each retrieval rule is named wherever a retrieval number is shown
RULE_WORDS = {
    RetrievalRule.EVIDENCE.value: "evidence rule: every fact the answer needs is stated by at least one retrieved "
                                  "document",
    RetrievalRule.ALL.value: "all-gold rule: every gold document retrieved",
    RetrievalRule.ANY.value: "any-gold rule: at least one gold document retrieved (hit)",
}


class AnswerSets(StrEnum):
    """Whether a response is correct when it gives all the answer's rows or any one of them."""

    ALL = "all"
    ANY = "any"


class GapRule(StrEnum):
    """Which groups two compared sides drop as gap groups: those neither side answered (``joint``),
    or each side's own (``each``, as the paper's Table 3)."""

    JOINT = "joint"
    EACH = "each"


#: the paper's benchmarks a GRAMMAR reference directory may be declared as (``none``: no paper column)
BENCHMARKS = ("aurp", "spider-open", "spider-closed", "none")
#: which of a GRAMMAR reference directory's files are judged
REFERENCE_SETS = ("unbalanced", "balanced")

E = TypeVar("E", bound=StrEnum)


def parse_choice(kind: type[E], value: Any, what: str, field_name: str) -> E:
    """``value`` as a member of ``kind``, or one line naming the field and the choices."""
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(m.value for m in kind)
        raise RagdxError(f"unknown {what} {value!r} (choose from {choices})", field=field_name) from None


def judge_name(name: str, field_name: str = "judge") -> str:
    """A judge's name checked against the judges there are (``containment`` is ``contains``)."""
    from ragdx.evaluate.judges import JUDGES

    name = "contains" if name == "containment" else name
    if name not in JUDGES:
        raise RagdxError(f"unknown judge {name!r} (choose from {', '.join(JUDGES)})", field=field_name)
    return name


@dataclass(frozen=True)
class JudgeSpec:
    """A judge to build: its name, the answer-set rule and the LLM it may ask (the cascade asks it
    only where the cheap judges cannot decide). ``instance`` is a judge object handed over
    ready-made (a subclass, a memoising wrapper); it is used as it is."""

    name: str = "cascade"
    sets: AnswerSets = AnswerSets.ALL
    llm: Any = field(default=None, compare=False, repr=False)
    instance: Judge | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sets", parse_choice(AnswerSets, self.sets, "answer-set rule", "sets"))
        if self.instance is not None:
            object.__setattr__(self, "name", str(getattr(self.instance, "name", type(self.instance).__name__)))
            return
        object.__setattr__(self, "name", judge_name(self.name))
        if self.name == "llm" and self.llm is None:
            raise RagdxError("the llm judge needs an LLM (configure llm: in ragdx.yaml)", field="judge")

    @classmethod
    def of(cls, judge: str | Judge | JudgeSpec, *, sets: Any = AnswerSets.ALL, llm: Any = None) -> JudgeSpec:
        """A spec from what a caller has: a name, a judge object, or a spec (kept as it is)."""
        if isinstance(judge, JudgeSpec):
            return judge
        if isinstance(judge, str):
            return cls(judge, sets, llm)
        return cls(sets=sets, llm=llm, instance=judge)

    def named(self, name: str | Judge, field_name: str = "judge") -> JudgeSpec:
        """Another judge with the same answer sets and LLM (``judge-agreement``'s second judge)."""
        if not isinstance(name, str):
            return JudgeSpec(sets=self.sets, llm=self.llm, instance=name)
        return JudgeSpec(judge_name(name, field_name), self.sets, self.llm)

    def build(self) -> Judge:
        if self.instance is not None:
            return self.instance
        from ragdx.evaluate.judges import make_judge

        return make_judge(self.name, llm=self.llm, sets=self.sets.value)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "sets": self.sets.value, "llm": self.llm is not None}


#: EvaluationConfig's own keywords that describe the judge
_JUDGE_KEYS = ("judge", "sets", "llm")


@dataclass(frozen=True)
class EvaluationConfig:
    """Everything that decides how runs are judged and measured (the inputs and the output
    directory are the call's own arguments). Validated when built; immutable after."""

    judge: JudgeSpec = field(default_factory=JudgeSpec)
    retrieval: RetrievalRule = RetrievalRule.EVIDENCE
    #: retrieved documents considered (None: all the system gave its language model)
    k: int | None = None
    n_boot: int = 1000
    seed: int = 0
    gap: GapRule = GapRule.JOINT
    #: compare: refuse runs over different query sets instead of comparing their intersection
    strict: bool = False
    #: compare: only the queries of this style
    style: str | None = None
    #: evaluate: the two styles tested against each other (default: short and long, or the only two)
    compare_pair: tuple[str, str] | None = None
    lab: bool = True
    bertscore: bool = False
    rouge: bool = True
    #: G-Eval criteria by the LLM (None: on when there is an LLM)
    geval: bool | None = None
    benchmark: str | None = None
    require_complete: bool = False
    closed_book: Path | None = None
    exclude_open_domain: bool = False
    reference_set: str = "unbalanced"
    #: verdict cache (a path or a ``VerdictCache``); where verdicts are kept, not how they are made
    cache: VerdictCache | str | Path | None = field(default=None, compare=False, repr=False)
    #: worker processes judging offline verdicts beside the main one (None: one per spare core, at most
    #: 4, for runs of 20,000 answers or more; 0: none); how fast verdicts are made, not what they are
    workers: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.judge, JudgeSpec):
            object.__setattr__(self, "judge", JudgeSpec.of(self.judge))
        object.__setattr__(self, "retrieval", parse_choice(RetrievalRule, self.retrieval, "retrieval rule",
                                                           "retrieval"))
        object.__setattr__(self, "gap", parse_choice(GapRule, self.gap, "gap rule", "gap"))
        for name, low in (("n_boot", 1), ("seed", 0), ("k", 1), ("workers", 0)):
            value = getattr(self, name)
            if value is None and name in ("k", "workers"):
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise RagdxError(f"must be a whole number of at least {low}, not {value!r}", field=name)
        if self.benchmark is not None and self.benchmark not in BENCHMARKS:
            raise RagdxError(f"unknown benchmark {self.benchmark!r} (choose from {', '.join(BENCHMARKS)})",
                             field="benchmark")
        if self.reference_set not in REFERENCE_SETS:
            raise RagdxError(f"unknown reference set {self.reference_set!r} (choose from "
                             f"{', '.join(REFERENCE_SETS)})", field="reference_set")
        if self.compare_pair is not None:
            object.__setattr__(self, "compare_pair", _pair(self.compare_pair))
        if self.closed_book is not None:
            object.__setattr__(self, "closed_book", Path(self.closed_book))
        elif self.exclude_open_domain:
            raise RagdxError("exclude_open_domain needs a closed-book run (closed_book)", field="exclude_open_domain")

    @classmethod
    def build(cls, base: EvaluationConfig | None = None, /, **options: Any) -> EvaluationConfig:
        """``base`` (default: the defaults) with ``options`` applied, validated once: the keywords
        of the fields, with the judge given as ``judge`` (a name, a judge object or a
        :class:`JudgeSpec`), ``sets`` and ``llm``. ``base`` itself when there is nothing to apply."""
        base = base if base is not None else cls()
        if not options:
            return base
        own = {f.name for f in dataclasses.fields(cls)} - {"judge"}
        unknown = sorted(set(options) - own - set(_JUDGE_KEYS))
        if unknown:
            raise TypeError(f"unexpected evaluation option(s): {', '.join(unknown)}")
        judge = base.judge
        if any(key in options for key in _JUDGE_KEYS):
            given = options.get("judge", judge)
            prior = given if isinstance(given, JudgeSpec) else judge
            sets, llm = options.get("sets", prior.sets), options.get("llm", prior.llm)
            judge = (dataclasses.replace(given, sets=sets, llm=llm) if isinstance(given, JudgeSpec)
                     else JudgeSpec.of(given, sets=sets, llm=llm))
        return dataclasses.replace(base, judge=judge, **{k: v for k, v in options.items() if k in own})

    def to_dict(self) -> dict[str, Any]:
        """The configuration as plain JSON data (the LLM and the cache are named, not written; the
        workers, which change how fast verdicts are made and not what they are, are left out: the
        evaluation's files are the same for any number)."""
        out: dict[str, Any] = {"judge": self.judge.to_dict()}
        for f in dataclasses.fields(self):
            if f.name in ("judge", "cache", "workers"):
                continue
            value = getattr(self, f.name)
            if isinstance(value, StrEnum):
                value = value.value
            elif isinstance(value, Path):
                value = str(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], *, llm: Any = None, cache: Any = None) -> EvaluationConfig:
        """What :meth:`to_dict` wrote, validated again; the LLM and the cache are the caller's."""
        judge = obj.get("judge") or {}
        known = {f.name for f in dataclasses.fields(cls)} - {"judge", "cache"}
        unknown = sorted(set(obj) - known - {"judge"})
        if unknown:
            raise RagdxError(f"unknown evaluation option(s): {', '.join(unknown)}", field=unknown[0])
        return cls(judge=JudgeSpec(str(judge.get("name", "cascade")), judge.get("sets", "all"), llm),
                   cache=cache, **{k: v for k, v in obj.items() if k in known})


def _pair(pair: Any) -> tuple[str, str]:
    if isinstance(pair, str) or len(pair) != 2:
        raise RagdxError(f"must name two styles, not {pair!r}", field="compare_pair")
    return (str(pair[0]), str(pair[1]))


__all__ = ["BENCHMARKS", "RULE_WORDS", "AnswerSets", "EvaluationConfig", "GapRule", "JudgeSpec", "RetrievalRule",
           "judge_name", "parse_choice"]
