"""``compare`` and ``compare_styles`` never name a module that did not change, and their sentence
explains an accuracy change that the modules do not (benchmarks/false_claims.py measures the
rates over many seeds; these are the constructed cases)."""

from __future__ import annotations

import json

from ragdx.evaluate.compare import Comparison, compare, compare_markdown, compare_styles, differing_modules
from ragdx.evaluate.records import Judgement


def J(i, g, correct, style="short", ret=True, docs=("gold",)):
    return Judgement(id=str(i), group_id=g, style=style, correct=bool(correct), retrieval_correct=ret,
                     retrieved_ids=list(docs), gold_ids=["gold"], kb_supported=True)


def _unbalanced_identical_styles(groups=200):
    """Every phrasing of a group, of either style, has the same retrieval and the same answer; groups
    differ (a group is found or not), and a group has 3 short phrasings where it is found, 1 where not
    (and the other way round for long)."""
    js = []
    for g in range(groups):
        found = g % 3 != 0
        right = found and g % 7 != 0
        n_short, n_long = (3, 1) if found else (1, 3)
        for style, n in (("short", n_short), ("long", n_long)):
            for t in range(n):
                js.append(J(f"{g}-{style}-{t}", f"g{g}", right, style=style, ret=found, docs=(f"d{g}",)))
    return js


def test_identical_styles_with_unbalanced_groups_show_exactly_no_difference():
    """Pooled ratios weighed the found groups 3:1 on one side and 1:3 on the other, so identical
    behaviour looked like a large 'retrieval more robust on long'; per-group rates weighted alike
    give exactly 0."""
    res = compare_styles(_unbalanced_identical_styles(), "short", "long", n_boot=300)
    for module in ("retrieval", "language model"):
        e = res.modules[module]
        assert e["difference"] == 0.0 and e["ci_low"] == e["ci_high"] == 0.0, (module, e)
    assert differing_modules(res) == []
    assert not res.modules["language model"]["confounded"]  # identical contexts: a fair test, passed
    # the pooled accuracies differ (the table's), group by group nothing moved: no accuracy claim either
    assert res.differences["accuracy"]["ci_high"] < 0
    assert res.accuracy_by_group["difference"] == 0.0
    assert res.sentence.startswith("No module behaves significantly differently on long than on short")


def _styles(reader_long_wrong_every=None, same_contexts=True, groups=150):
    js = []
    for g in range(groups):
        for style in ("short", "long"):
            for t in range(2):
                i = 4 * g + 2 * (style == "long") + t
                docs = ("gold", "x") if same_contexts or style == "short" else ("gold", f"long-{g}-{t}")
                worse = style == "long" and reader_long_wrong_every and i % reader_long_wrong_every == 0
                wrong = worse or g % 11 == 0
                js.append(J(f"{g}-{style}-{t}", f"g{g}", not wrong, style=style, docs=docs))
    return js


def test_style_language_model_is_attributed_only_on_identical_contexts():
    # the reader answers long phrasings worse, on the very same documents: the language model's
    res = compare_styles(_styles(reader_long_wrong_every=3), "short", "long", n_boot=300)
    lm = res.modules["language model"]
    assert not lm["confounded"] and lm["ci_high"] < 0
    assert differing_modules(res) == ["language model"]
    assert "significant, the language model is less robust on long" in res.sentence
    # the same answers, but the long phrasings were handed other documents: shown, not attributed
    res = compare_styles(_styles(reader_long_wrong_every=3, same_contexts=False), "short", "long", n_boot=300)
    lm = res.modules["language model"]
    assert lm["confounded"] and lm["ci_high"] < 0 and differing_modules(res) == []
    assert "identical retrieved documents" in lm["note"]
    # accuracy fell and no module can be named: the sentence says why instead of "no module"
    s = res.sentence
    assert s.startswith("Accuracy is significantly lower on long than on short, and no single module explains it")
    assert "the reader does worse on long phrasings where the evidence was retrieved" in s
    assert "No module behaves" not in s


def test_modules_are_corrected_for_testing_two_at_once():
    a = [J(i, f"g{i // 2}", i % 10 != 0, ret=True) for i in range(400)]
    b = [J(i, f"g{i // 2}", i % 10 != 0 and i % 7 != 0, ret=i % 5 != 0) for i in range(400)]
    res = compare(a, b, n_boot=300)
    for module in ("retrieval", "language model"):
        e = res.modules[module]
        assert e["tested"] == 2 and abs(e["level"] - 0.975) < 1e-12
    assert "97.5 % CI" in res.sentence and "corrected for 2 modules tested" in res.sentence
    assert "97.5 % CI, corrected for 2 modules tested" in compare_markdown(res)
    # one module confounded: only one can be named, nothing to correct
    c = [J(i, f"g{i // 2}", i % 10 != 0, ret=True, docs=("gold", f"b{i}")) for i in range(400)]
    res = compare(a, c, n_boot=300)
    assert res.modules["language model"]["confounded"]
    assert res.modules["retrieval"]["level"] == 0.95 and res.modules["retrieval"]["tested"] == 1


def test_better_retrieval_worse_accuracy_says_the_reader_does_worse_on_its_contexts():
    """The demo's case: B's retriever finds the evidence more often, yet B is worse overall, because
    the same reader does worse on the contexts B's retriever hands it."""
    a = [J(i, f"g{i // 2}", i % 10 < 7 and i % 50 != 0, ret=i % 10 < 7, docs=("gold", f"a{i}")) for i in range(600)]
    b = [J(i, f"g{i // 2}", i % 20 != 0 and i % 2 == 1, ret=i % 20 != 0, docs=("gold", f"b{i}")) for i in range(600)]
    res = compare(a, b, n_boot=300)
    assert differing_modules(res) == ["retrieval"] and res.modules["retrieval"]["difference"] > 0
    assert res.differences["accuracy"]["ci_high"] < 0
    s = res.sentence
    assert s.startswith("The retrieval behaves differently in B than in A, yet overall accuracy is significantly "
                        "lower in B: the reader does worse on the contexts B's retriever hands it: on the 390 queries "
                        "both retrieved the evidence for")
    cells = {c["cell"]: c for c in res.accuracy_by_retrieval}
    assert cells["only_b"]["contribution"] > 0 > cells["both"]["contribution"]


def test_new_finds_the_reader_misreads_are_named():
    """The demo's measured case: accuracy where both found the evidence is identical; the loss is
    all on the queries only B's retriever found the evidence for, which B's reader answers less
    often than A answered them without it."""
    a, b = [], []
    for i in range(600):
        both, only_b = i % 6 < 3, i % 6 >= 3
        a.append(J(i, f"g{i // 2}", both and i % 2 == 0 or only_b and i % 6 != 5, ret=both, docs=("gold", f"a{i}")))
        b.append(J(i, f"g{i // 2}", both and i % 2 == 0 or only_b and i % 6 == 5, ret=True, docs=("gold", f"b{i}")))
    res = compare(a, b, n_boot=300)
    assert differing_modules(res) == ["retrieval"] and res.modules["language model"]["difference"] == 0.0
    assert ("yet overall accuracy is significantly lower in B: the reader does worse on the contexts B's retriever "
            "hands it: on the 300 queries only B retrieved the evidence for, B answered 100 of them and A, without "
            "the evidence, 200 (-0.167 of the accuracy change)") in res.sentence


def test_accuracy_change_no_module_explains():
    """Identical retrieval and identical answers where the evidence was retrieved; A guessed some
    answers right without the evidence. Accuracy differs, no module does: said so."""
    a = [J(i, f"g{i // 2}", (i % 4 != 0) or i % 8 == 0, ret=i % 4 != 0) for i in range(800)]
    b = [J(i, f"g{i // 2}", i % 4 != 0, ret=i % 4 != 0) for i in range(800)]
    res = compare(a, b, n_boot=300)
    assert differing_modules(res) == [] and res.differences["accuracy"]["ci_high"] < 0
    s = res.sentence
    assert s.startswith("Accuracy is significantly lower in B than in A, and no single module explains it on a "
                        "common footing: on the 200 queries neither retrieved the evidence for (or whose retrieval "
                        "could not be judged), answered without it, B answered 0 of them, A 100 (-0.125 of the "
                        "accuracy change)")
    assert "No module behaves" not in s
    assert sum(c["contribution"] for c in res.accuracy_by_retrieval) == res.differences["accuracy"]["difference"]
    # two styles: the long phrasings that missed the evidence are never guessed right; nothing measured
    # on a common footing moved, and the sentence says so rather than "no module"
    js = []
    for g in range(200):
        for style in ("short", "long"):
            for t in range(2):
                found = t == 0
                js.append(J(f"{g}-{style}-{t}", f"g{g}", found or (style == "short" and g % 2 == 0), style=style,
                            ret=found, docs=("gold",) if found else (f"x{g}",)))
    res = compare_styles(js, "short", "long", n_boot=300)
    assert differing_modules(res) == [] and res.accuracy_by_group["ci_high"] < 0
    assert res.sentence.startswith("Accuracy is significantly lower on long than on short, and no single module "
                                   "explains it on a common footing. ")


def test_sentence_when_nothing_differs_and_when_modules_explain_accuracy():
    a = [J(i, f"g{i // 2}", i % 10 != 0) for i in range(400)]
    assert compare(a, list(a), n_boot=100).sentence.startswith("No module behaves significantly differently")
    worse = [J(i, f"g{i // 2}", i % 10 != 0 and i % 3 != 0) for i in range(400)]
    s = compare(a, worse, n_boot=300).sentence
    assert s.startswith("The language model behaves differently in B than in A. ")  # it explains the drop


def test_compare_returns_the_typed_result_whose_dict_is_comparison_json():
    # issue 20: the core returns a Comparison (it returned a dict, which ragdx.compare wrapped);
    # its to_dict() keeps comparison.json's key order: the accuracy split just before the sentence
    a = [J(i, f"g{i // 2}", i % 10 != 0) for i in range(200)]
    worse = [J(i, f"g{i // 2}", i % 10 != 0 and i % 3 != 0) for i in range(200)]
    paired = compare(a, worse, n_boot=100)
    assert isinstance(paired, Comparison) and paired.accuracy_by_retrieval and paired.accuracy_by_group is None
    keys = list(paired.to_dict())
    assert keys[-2:] == ["accuracy_by_retrieval", "sentence"] and keys[:3] == ["a", "b", "mode"]
    styles = compare_styles(_unbalanced_identical_styles(60), "short", "long", n_boot=100)
    assert isinstance(styles, Comparison) and list(styles.to_dict())[-2:] == ["accuracy_by_group", "sentence"]
    # read back from its JSON it is the same result, and writes the same bytes again
    text = json.dumps(paired.to_dict(), default=str)
    assert json.dumps(Comparison.from_dict(json.loads(text)).to_dict(), default=str) == text
