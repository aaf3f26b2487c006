"""The report's diagnosis (which module to fix and how sure) on verdicts whose answer is known,
and the charts' room for their labels (measured text widths, legends that wrap)."""

from __future__ import annotations

import re
from html import unescape

from ragdx.evaluate.records import Judgement
from ragdx.report import svg
from ragdx.report.diagnosis import NONE, diagnose
from ragdx.report.templates import template_counts


def _rows(spec: dict[str, int], per_group: int = 4) -> list[dict]:
    """``spec`` verdict -> count, laid out over semantic groups of ``per_group`` queries each."""
    rows, i = [], 0
    for verdict, n in spec.items():
        for _ in range(n):
            rows.append({"id": f"q{i}", "group_id": f"g{i // per_group}", "verdict": verdict, "why": f"{verdict} why"})
            i += 1
    return rows


def test_the_module_with_most_wrong_answers_is_named_with_its_share_and_interval():
    spec = {"correct": 40, "kb_gap": 10, "retrieval_failure": 50, "lm_failure": 20, "kb_or_retrieval": 20}
    rows = _rows(spec, per_group=1)
    judged = [Judgement(id="q50", group_id="g50", style="short", correct=False, query="Who teaches X?",
                        answer="Ada", response="Bob")]
    d = diagnose("sys", rows, judged, n_boot=300)
    assert (d.module, d.verdict, d.wrong, d.unsure) == ("retriever", "retrieval_failure", 100, 20)
    first, second, third = d.shares
    assert (first.module, second.module, third.module) == ("retriever", "language model", "knowledge base")
    assert first.share == 0.5 and first.ci_low < 0.5 < first.ci_high
    assert d.significant and d.lead_low > 0 and d.lead == 0.3
    assert d.headline.startswith("Fix the retriever:")
    assert "50 % of the 100 wrong answers (50; 95 % CI" in d.sure and "unsure verdicts: 20 (20 %)" in d.sure
    assert d.evidence.startswith("50 of them: retrieval_failure why")
    assert "“Who teaches X?” answered “Bob”, true answer “Ada”" in d.evidence
    # the same verdicts, four phrasings of one fact each sharing a verdict: a quarter as many
    # independent facts, so the intervals (over semantic groups) widen and the lead is unsure
    grouped = diagnose("sys", _rows(spec, per_group=4), n_boot=300)
    assert grouped.module == "retriever" and grouped.significant is False
    assert grouped.shares[0].ci_high - grouped.shares[0].ci_low > first.ci_high - first.ci_low


def test_two_modules_not_told_apart_say_so():
    d = diagnose("sys", _rows({"retrieval_failure": 21, "lm_failure": 20}, per_group=1), n_boot=300)
    assert d.significant is False and d.lead_low < 0 < d.lead_high
    assert d.headline.startswith("Fix the retriever (or the language model: not told apart)")
    assert "not clearly ahead of the language model" in d.sure


def test_nothing_to_fix_and_nothing_to_name():
    assert diagnose("sys", _rows({"correct": 8})).module == NONE
    assert "every judged answer is correct" in diagnose("sys", _rows({"correct": 8})).headline
    only_unsure = diagnose("sys", _rows({"correct": 3, "retrieval_or_lm": 5, "undetermined": 1}))
    assert only_unsure.module == NONE and "all 6 wrong answers have unsure verdicts" in only_unsure.headline
    failed = diagnose("sys", _rows({"unjudged": 4}))
    assert failed.module == NONE and failed.judged == 0 and "4 judgements failed" in failed.sure


def test_failed_judgements_are_neither_wrong_answers_nor_hidden():
    d = diagnose("sys", _rows({"correct": 4, "lm_failure": 6, "kb_gap": 2, "unjudged": 3}), n_boot=200)
    assert (d.wrong, d.judged, d.unjudged) == (8, 12, 3) and "3 judgements failed" in d.sure


class _Record:
    def __init__(self, template: str):
        self.sql_template_id = template


def test_templates_without_queries_are_counted_and_explained():
    manifest = {"options": {"multi_answer": "drop"},
                "per_template_counts": {"s1": {"combinations": 3, "single": 3},
                                        "s2": {"combinations": 6, "single": 0, "multi_dropped": 6},
                                        "s3": {"combinations": 0}},
                "missing_text_templates": []}
    counted = template_counts(manifest, [_Record("s1")] * 5)
    assert counted.words() == "3 SQL templates, 2 without queries" and counted.with_queries == 1
    why = {t.template: t.why for t in counted.without}
    assert why == {"s2": "all 6 value combinations dropped: 6 with several answers (dropped: multi_answer = drop)",
                   "s3": "no value combination in the database"}
    # a dataset without the manifest's counts: the templates its records use
    assert template_counts({}, [_Record("s1"), _Record("s2")]).words() == "2 SQL templates"


def _texts(chart: str) -> list[tuple[float, str, str]]:
    return [(float(x), anchor, unescape(text)) for x, anchor, text in
            re.findall(r'<text x="([-\d.]+)" y="[-\d.]+" text-anchor="(\w+)"[^>]*>([^<]*)</text>', chart)]


def _width(chart: str) -> float:
    return float(re.search(r'viewBox="0 0 ([\d.]+) ', chart).group(1))


def test_a_long_label_gets_room_instead_of_being_cut_off():
    label = "language model: accuracy where the evidence was retrieved, on a common footing"
    chart = svg.interval_dots([(label, 0.4, 0.3, 0.5), ("short", 0.5, 0.4, 0.6)], title="t", width=500,
                              label_width=120)
    ((x, anchor, _),) = [t for t in _texts(chart) if t[2] == label]
    assert anchor == "end" and x - svg.text_width(label) >= 0
    bars = svg.stacked_bars([(label, [("a", 1), ("b", 2)])], {"a": "#000", "b": "#111"}, title="t", width=400)
    ((x, _, _),) = [t for t in _texts(bars) if t[2] == label]
    assert x - svg.text_width(label) >= 0


def test_legends_wrap_inside_the_chart():
    names = [f"series number {i} with a rather long name" for i in range(4)]
    for chart in (svg.histograms([(n, [0.1, 0.5], "#000") for n in names], title="t", width=420),
                  svg.lines([(n, [0, 1], [0, 1], "#000") for n in names], title="t", xlabel="x", ylabel="y",
                            width=420),
                  svg.stacked_bars([("row", [(n, 1) for n in names])], dict.fromkeys(names, "#000"), title="t",
                                   width=420)):
        width = _width(chart)
        for x, anchor, text in _texts(chart):
            if anchor == "start":
                assert x + svg.text_width(text) <= width, (text, x, width)


def test_text_width_follows_the_characters():
    assert svg.text_width("iiii") < svg.text_width("MMMM") < svg.text_width("日本語日本")
    assert svg.text_width("abc", 24) == 2 * svg.text_width("abc", 12)
