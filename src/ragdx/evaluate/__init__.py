"""GRAMMAR-Eval and the RAG lab's metrics: judges, groups and tags, module blame, hypothesis
tests, reference-free evaluators and their reliability, text metrics.

Heavy pieces (BERTScore's model, the LLM client) are imported only when used.
"""

from ragdx.evaluate.compare import compare, compare_styles
from ragdx.evaluate.judges import (
    CascadeJudge,
    ContainmentJudge,
    ExactMatchJudge,
    Judge,
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
    "CascadeJudge", "ContainmentJudge", "ExactMatchJudge", "Judge", "JudgeItem", "Judgement", "LLMJudge",
    "TokenF1Judge", "Verdict", "VerdictCache", "agreement", "blame", "blame_counts", "bootstrap_difference",
    "bootstrap_metrics", "compare", "compare_paths", "compare_styles", "context_comparison", "evaluate",
    "evaluate_judgements", "evaluate_many", "evaluate_reference", "group_stats", "group_tags", "judge_agreement",
    "judge_plain", "judge_run", "load_judgements", "make_judge", "metrics", "normalise", "read_judgements",
    "read_plain_jsonl", "read_reference", "remove_gap_groups", "sample_stratified", "sample_unbalanced", "table3",
    "wilson", "write_judgements",
]
