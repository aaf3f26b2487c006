"""GRAMMAR-Eval and the RAG lab's metrics: judges, groups and tags, module blame, hypothesis
tests, reference-free evaluators and their reliability, text metrics.

Names are imported on first use (``from ragdx.evaluate import CascadeJudge`` works as before): the
package ``ragdx`` loads this one at its own import (see ``ragdx/__init__``), which must stay cheap
for ``ragdx --help``. The function ``compare`` is taken from :mod:`ragdx.evaluate.compare`: here
that name is the submodule, as the import system sets it whenever the submodule is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragdx.lazy import lazy_names

if TYPE_CHECKING:
    from ragdx.evaluate.compare import compare_styles
    from ragdx.evaluate.judges import (
        CascadeJudge,
        ContainmentJudge,
        ExactMatchJudge,
        Judge,
        JudgeAgreement,
        LLMJudge,
        TokenF1Judge,
        Verdict,
        VerdictCache,
        agreement,
        make_judge,
        normalise,
    )
    from ragdx.evaluate.protocol import (
        blame,
        blame_counts,
        context_comparison,
        group_stats,
        group_tags,
        metrics,
        remove_gap_groups,
        sample_stratified,
        sample_unbalanced,
        table3,
    )
    from ragdx.evaluate.records import JudgeItem, Judgement, read_judgements, write_judgements
    from ragdx.evaluate.reference import read_plain_jsonl, read_reference
    from ragdx.evaluate.report import (
        compare_paths,
        evaluate,
        evaluate_judgements,
        evaluate_many,
        evaluate_reference,
        judge_agreement,
        load_judgements,
    )
    from ragdx.evaluate.runs import judge_plain, judge_run
    from ragdx.evaluate.stats import bootstrap_difference, bootstrap_metrics, wilson

__all__ = [
    "CascadeJudge", "ContainmentJudge", "ExactMatchJudge", "Judge", "JudgeAgreement", "JudgeItem", "Judgement",
    "LLMJudge",
    "TokenF1Judge", "Verdict", "VerdictCache", "agreement", "blame", "blame_counts", "bootstrap_difference",
    "bootstrap_metrics", "compare_paths", "compare_styles", "context_comparison", "evaluate",
    "evaluate_judgements", "evaluate_many", "evaluate_reference", "group_stats", "group_tags", "judge_agreement",
    "judge_plain", "judge_run", "load_judgements", "make_judge", "metrics", "normalise", "read_judgements",
    "read_plain_jsonl", "read_reference", "remove_gap_groups", "sample_stratified", "sample_unbalanced", "table3",
    "wilson", "write_judgements",
]

#: name -> the submodule that defines it
_LAZY = {
    "compare_styles": "compare",
    **dict.fromkeys(["CascadeJudge", "ContainmentJudge", "ExactMatchJudge", "Judge", "JudgeAgreement", "LLMJudge",
                     "TokenF1Judge",
                     "Verdict", "VerdictCache", "agreement", "make_judge", "normalise"], "judges"),
    **dict.fromkeys(["blame", "blame_counts", "context_comparison", "group_stats", "group_tags", "metrics",
                     "remove_gap_groups", "sample_stratified", "sample_unbalanced", "table3"], "protocol"),
    **dict.fromkeys(["JudgeItem", "Judgement", "read_judgements", "write_judgements"], "records"),
    **dict.fromkeys(["read_plain_jsonl", "read_reference"], "reference"),
    **dict.fromkeys(["compare_paths", "evaluate", "evaluate_judgements", "evaluate_many", "evaluate_reference",
                     "judge_agreement", "load_judgements"], "report"),
    **dict.fromkeys(["judge_plain", "judge_run"], "runs"),
    **dict.fromkeys(["bootstrap_difference", "bootstrap_metrics", "wilson"], "stats"),
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY, __all__)
