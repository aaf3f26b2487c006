"""What a dataset is generated with, as one typed object that ``ragdx gen`` and
``ragdx.generate_dataset`` both build with :func:`gen_options` (issue 20: the two faces had
drifted: the API had no cap on groups per template and kept NULL answers, where the CLI caps at
25 and drops them).

The defaults are ragdx.yaml's (:class:`ragdx.config.GenConfig` and ``text_templates.n``), so a
default written there once holds for both faces. Values given by the caller replace the file's;
each is checked here, before any database is opened, and a bad one is named as the caller spelt
it (``--max-groups-per-template`` on the command line, ``max_groups`` in Python).

This module imports nothing heavy: the CLI checks its flags with it before its first heavy import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Literal, get_args

from ragdx.errors import RagdxError

if TYPE_CHECKING:  # pragma: no cover
    from ragdx.config import Config
    from ragdx.gen.qa import AnswerOptions

MultiPolicy = Literal["drop", "keep"]
#: what a right reply declines (``QARecord.refusal_kind``; made by ``ragdx.gen.refusals``, which
#: this light module must not import)
REFUSAL_KINDS = ("false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact")
NullPolicy = Literal["drop", "unanswerable", "keep"]
Method = Literal["set", "per-combination"]

#: the policies' allowed values, in the order error messages list them
CHOICES: dict[str, tuple[str, ...]] = {
    "null_answers": get_args(NullPolicy),
    "multi_answer": get_args(MultiPolicy),
    "unanswerable": get_args(MultiPolicy),
    "method": get_args(Method),
}


@dataclass(frozen=True, slots=True)
class GenOptions:
    """How the templates are filled, answered and sampled (no defaults here: see :func:`gen_options`)."""

    #: styles to make records in; None: every style the text templates have
    styles: tuple[str, ...] | None
    #: text templates per SQL template and style
    n: int
    #: at most this many semantic groups per SQL template (a seeded sample); None: no cap
    max_groups_per_template: int | None
    seed: int
    multi_answer: MultiPolicy
    unanswerable: MultiPolicy
    null_answers: NullPolicy
    method: Method
    #: balanced sample: this many queries per group and style; None: every query
    per_group: int | None
    #: a seeded unbalanced subsample per table
    unbalanced: bool
    #: conversations per walk of the schema's relations (``ragdx.gen.conversations``); 0: none
    conversations: int = 0
    #: refusal groups (``ragdx.gen.refusals``) of each kind per SQL template, each paired with an
    #: answerable group; 0: none (the default keeps a dataset what it was: every question answerable)
    refusals: int = 0
    #: which refusal kinds; None: all five
    refusal_kinds: tuple[str, ...] | None = None
    #: the question kinds to ask (``ragdx.gen.kinds``); look-ups only by default, so a dataset and
    #: the demo's figures stay what they were
    kinds: tuple[str, ...] = ("lookup",)

    def answers(self) -> AnswerOptions:
        """The part :func:`ragdx.gen.qa.answer_template` reads."""
        from ragdx.gen.qa import AnswerOptions

        return AnswerOptions(max_groups_per_template=self.max_groups_per_template, seed=self.seed,
                             multi_answer=self.multi_answer, unanswerable=self.unanswerable, method=self.method,
                             null_answers=self.null_answers)


def gen_options(base: Config | GenOptions | None = None, given: Mapping[str, Any] | None = None, *,
                names: Mapping[str, str] | None = None) -> GenOptions:
    """``base`` (a project configuration: its ``gen`` section and ``text_templates.n``; or options
    built before; default: ragdx.yaml's defaults) with each value in ``given`` that is not None in
    its place (keys: :class:`GenOptions`'s fields). A cap of 0 means no cap. ``names``: how the
    caller spells a field, for the one-line error (default: the field's name)."""
    known = [f.name for f in fields(GenOptions)]
    given, names = dict(given or {}), dict(names or {})
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise RagdxError(f"not a generation option (expected one of {', '.join(known)})", field=unknown[0])
    merged = {**_defaults(base), **{k: v for k, v in given.items() if v is not None}}

    def name(key: str) -> str:
        return names.get(key, key)

    # checked in the order the CLI always checked them, so its messages stay the same
    n = _count(merged["n"], name("n"), least=1)
    per_group = _count(merged["per_group"], name("per_group"), least=1)
    cap = _count(merged["max_groups_per_template"], name("max_groups_per_template"), least=0,
                 hint="0 (no cap) or a positive number")
    policies = {key: _choice(merged[key], allowed, name(key)) for key, allowed in CHOICES.items()}
    return GenOptions(styles=_styles(merged["styles"], name("styles")), n=n,
                      max_groups_per_template=cap or None,  # 0 asks for no cap: a cap of 0 would ask nothing
                      seed=_count(merged["seed"], name("seed")), per_group=per_group,
                      unbalanced=_flag(merged["unbalanced"], name("unbalanced")),
                      conversations=_count(merged["conversations"], name("conversations"), least=0),
                      refusals=_count(merged["refusals"], name("refusals"), least=0),
                      refusal_kinds=check_refusal_kinds(merged["refusal_kinds"], name("refusal_kinds")),
                      kinds=check_kinds(merged["kinds"], name("kinds")), **policies)


def _defaults(base: Config | GenOptions | None) -> dict[str, Any]:
    if isinstance(base, GenOptions):
        return {f.name: getattr(base, f.name) for f in fields(GenOptions)}
    from ragdx.config import Config

    cfg = base if base is not None else Config()
    g = cfg.gen
    return {"styles": g.styles, "n": cfg.text_templates.n, "max_groups_per_template": g.max_groups_per_template,
            "seed": g.seed, "multi_answer": g.multi_answer, "unanswerable": g.unanswerable,
            "null_answers": g.null_answers, "method": g.method, "per_group": g.per_group, "unbalanced": g.unbalanced,
            "conversations": g.conversations, "refusals": g.refusals, "refusal_kinds": g.refusal_kinds,
            "kinds": g.kinds}


def check_refusal_kinds(kinds: Any, field: str) -> tuple[str, ...] | None:
    """Refusal kinds as given, each one of ``ragdx.gen.refusals.REFUSAL_KINDS`` (None: all)."""
    if kinds is None:
        return None
    if isinstance(kinds, str) or not isinstance(kinds, Sequence) or not all(isinstance(k, str) for k in kinds):
        raise RagdxError(f"expected a list of refusal kinds, got {kinds!r}", field=field)
    for k in kinds:
        if k not in REFUSAL_KINDS:
            raise RagdxError(f"expected one of {', '.join(REFUSAL_KINDS)}, got '{k}'", field=field)
    return tuple(dict.fromkeys(kinds)) or None


#: the question kinds (``ragdx.gen.kinds.QUESTION_KINDS``, which this light module must not import)
QUESTION_KINDS = ("lookup", "list", "count", "total", "extreme", "comparison", "time_range")


def check_kinds(kinds: Any, field: str) -> tuple[str, ...]:
    """Question kinds as given, each one of :data:`QUESTION_KINDS`; None: look-ups only."""
    if kinds is None:
        return ("lookup",)
    if isinstance(kinds, str) or not isinstance(kinds, Sequence) or not all(isinstance(k, str) for k in kinds) \
            or not kinds:
        raise RagdxError(f"expected a list of question kinds, got {kinds!r}", field=field)
    for k in kinds:
        if k not in QUESTION_KINDS:
            raise RagdxError(f"expected one of {', '.join(QUESTION_KINDS)}, got '{k}'", field=field)
    return tuple(dict.fromkeys(kinds))


def _count(value: Any, field: str, *, least: int | None = None, hint: str | None = None) -> Any:
    # bool is an int to Python, never a count to a user
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RagdxError(f"expected a whole number, got {value!r}", field=field)
    if least is not None and value < least:
        raise RagdxError(f"expected {hint or f'{least} or more'}, got {value}", field=field)
    return value


def _choice(value: Any, allowed: tuple[str, ...], field: str) -> Any:
    if value not in allowed:
        raise RagdxError(f"expected one of {', '.join(allowed)}, got '{value}'", field=field)
    return value


def _flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise RagdxError(f"expected true or false, got {value!r}", field=field)
    return value


def _styles(value: Any, field: str) -> tuple[str, ...] | None:
    # a single string would be read letter by letter as styles "s", "h", ...
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Sequence) or not all(isinstance(s, str) for s in value):
        raise RagdxError(f"expected a list of style names, got {value!r}", field=field)
    return tuple(value) or None
