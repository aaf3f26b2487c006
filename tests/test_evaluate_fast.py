"""The fast paths of `evaluate` give what the plain ones gave: offline judges in a loop (each
distinct answer judged once), orjson-read JSONL, bincount group statistics, reused bootstrap
resamples, ROUGE-L only on request, and no heavy import (NLTK, openai, torch) offline."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from dataclasses import asdict
from datetime import date

import numpy as np
import pytest

from ragdx.errors import RagdxError
from ragdx.evaluate import CascadeJudge, ContainmentJudge, ExactMatchJudge, JudgeItem, Judgement, TokenF1Judge
from ragdx.evaluate.protocol import group_stats
from ragdx.store import iter_jsonl
from tests.support.timing import scaled


def _items() -> list[JudgeItem]:
    base = [JudgeItem.from_text("q", "Maldives", "It is in the Maldives."),
            JudgeItem.from_text("q", "2023-01-15", "It began on 16 Jan 2023."),
            JudgeItem.from_text("q", "2023-01-15", "It began on 15 Jan 2023."),
            JudgeItem.from_text("q", "Maldives", None),
            JudgeItem.from_text("q", "Maldives", "   "),
            JudgeItem.from_text("q", 1, "1"), JudgeItem.from_text("q", 1.0, "1"), JudgeItem.from_text("q", True, "1"),
            JudgeItem.from_text("q", "1", "It is 1.5 billion."), JudgeItem.from_text("q", 1.5e9, "It is 1.5 billion."),
            JudgeItem.from_text("q", date(2023, 1, 15), "15 January 2023"),
            JudgeItem.from_text("q", "Paris", "It may be Paris, Lyon or Nice."),
            JudgeItem.from_text("q", "Faculty of Humanities", "Faculty of Engineering"),
            JudgeItem.from_text("q", [["Paris"], ["Rome"]], "Paris and Rome"),
            JudgeItem.from_text("q", [["Paris"], ["Rome"]], "Paris"),
            JudgeItem("q", [[None]], "There is no recorded value.", "single"),
            JudgeItem("q", [[None]], "42", "single"),
            JudgeItem("q", [[["a", "list"]]], "a list", "single")]  # an unhashable value: judged each time
    rng = random.Random(5)
    # the same answers again under other queries, in another order
    return base + [JudgeItem(f"other {i}", it.answer_rows, it.response, it.answer_kind)
                   for i, it in enumerate(rng.sample(base * 3, len(base) * 3))]


@pytest.mark.parametrize("make", [CascadeJudge, ExactMatchJudge, ContainmentJudge, TokenF1Judge,
                                  lambda: CascadeJudge(sets="any"), lambda: ContainmentJudge(sets="any")])
def test_offline_judge_many_equals_judging_item_by_item(make):
    items = _items()
    many, single = make(), make()
    assert many.synchronous()
    got = many.judge_many(items)
    want = [single.judge(it) for it in items]
    assert got == want
    # the cascade counts items, not distinct ones
    assert getattr(many, "decided_by", None) == getattr(single, "decided_by", None)
    if isinstance(many, CascadeJudge):
        assert sum(many.decided_by.values()) == len(items)


def test_a_judge_that_awaits_is_not_judged_synchronously():
    from ragdx.evaluate.judges import LLMJudge

    class Subclass(ContainmentJudge):
        async def ajudge(self, item):
            return self.judge(item)

    assert not Subclass().synchronous()
    assert not CascadeJudge(LLMJudge(llm=None)).synchronous()
    assert not LLMJudge(llm=None).synchronous()


def test_iter_jsonl_reads_exactly_what_json_reads(tmp_path):
    lines = ['{"a": 1, "b": [1, 2.5, -0.0, 1e-7, 12345678901234567890123], "c": {"d": null, "e": "x"}}',
             '{"s": "a \\"quoted\\": colon", "t": "\\u00e9\\ud83d\\ude00 日本語"}',
             '{"x": NaN, "y": Infinity}',
             "",
             "   ",
             '{"nested": [{"k": 1}, {"k": 2, "j": {"k": 3}}], "empty": {}, "list": []}\r',
             '{"big": 1.7976931348623157e308, "small": 5e-324, "f": 0.1}',
             '{"k" : 1 , "l"\t:2}',
             # integers past 64 bits stay exact; a fraction's long digit run is no such integer
             '{"n": -9223372036854775809, "m": [18446744073709551616], "f": 0.0015742790000103923}']
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got = list(iter_jsonl(path))
    want = [(i, json.loads(line)) for i, line in enumerate(lines, 1) if line.strip()]
    assert [n for n, _ in got] == [n for n, _ in want]
    for (_, g), (_, w) in zip(got, want, strict=True):
        assert json.dumps(g, sort_keys=True) == json.dumps(w, sort_keys=True)
        assert [type(v) for v in g.values()] == [type(v) for v in w.values()]


@pytest.mark.parametrize("line,message", [
    ('{"a": 1, "a": 2}', "'a' appears twice"),
    ('{"a": {"b": 1, "b": 2}}', "'b' appears twice"),
    ('{"a": [{"b": 1}, {"c": 1, "c" : 2}]}', "'c' appears twice"),
    ('{"a": "x\\":", "a": 2}', "'a' appears twice"),
    # a ':' written as an escape must not hide a key given twice from the ':' count
    ('{"a": "x\\u003a", "a": 2}', "'a' appears twice"),
    ('{"a" : 1, "b": {"a": 1}, "a": 3}', "'a' appears twice"),
    ('[1, 2]', "expected a JSON object"),
    ('"text"', "expected a JSON object"),
    ("null", "expected a JSON object"),
    ('{"a": 1', "not valid JSON"),
])
def test_iter_jsonl_refuses_what_it_refused(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"ok": 1}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(RagdxError, match=message) as info:
        list(iter_jsonl(path))
    assert "line 2" in str(info.value)


def test_iter_jsonl_bad_utf8_names_the_byte(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"ok": 1}\n{"a": "\xff"}\n')
    with pytest.raises(RagdxError, match=r"not valid UTF-8 \(byte 8 of the line\)") as info:
        list(iter_jsonl(path))
    assert "line 2" in str(info.value)


def test_judgement_to_dict_is_asdict():
    j = Judgement(id="q", group_id="g", style="short", correct=True, judge="exact", reason="r",
                  retrieval_correct=False, retrieved_ids=["a", "b"], gold_ids=["c"], kb_supported=None,
                  query="?", answer="x", response=None, evidence_sets=[["a"], ["b", "c"]], error="e")
    d = j.to_dict()
    # the refusal fields are written only for a record to refuse, the turn's only for a turn of a
    # conversation (issue 26): other lines stay as they were
    # and the question kind only for a question other than a look-up (issue 22)
    turn_fields = ("turn", "standalone_retrieved", "question_kind")
    plain = {k: v for k, v in asdict(j).items() if k not in ("refusal_kind", "reply_kind", *turn_fields)}
    assert d == plain and list(d) == list(plain)
    refuse = Judgement(**{**plain, "refusal_kind": "absent_entity", "reply_kind": "refusal"})
    expected = {k: v for k, v in asdict(refuse).items() if k not in turn_fields}
    assert refuse.to_dict() == expected and list(refuse.to_dict()) == list(expected)
    turn = Judgement(**{**plain, "refusal_kind": "absent_entity", "reply_kind": "refusal", "turn": 2,
                        "standalone_retrieved": True, "question_kind": "count"})
    assert turn.to_dict() == asdict(turn) and list(turn.to_dict()) == list(asdict(turn))
    d["retrieved_ids"].append("z")
    d["evidence_sets"][0].append("z")
    assert j.retrieved_ids == ["a", "b"] and j.evidence_sets[0] == ["a"]  # copies, as asdict made


def _group_stats_loop(judgements, ids):
    """The per-query loop group_stats was, kept here as its definition."""
    index = {g: i for i, g in enumerate(ids)}
    cols = {k: np.zeros(len(ids)) for k in ("n", "correct", "ret_known", "ret_correct", "lm_n", "lm_correct",
                                            "kb_known", "kb_supported")}
    for j in judgements:
        if j.error:
            continue
        i = index[j.group_id]
        if j.kb_supported is not None:
            cols["kb_known"][i] = 1.0
            cols["kb_supported"][i] = float(bool(j.kb_supported))
        cols["n"][i] += 1
        cols["correct"][i] += bool(j.correct)
        if j.retrieval_correct is not None:
            cols["ret_known"][i] += 1
            if j.retrieval_correct:
                cols["ret_correct"][i] += 1
                cols["lm_n"][i] += 1
                cols["lm_correct"][i] += bool(j.correct)
    return cols


def test_group_stats_counts_what_the_per_query_loop_counted():
    rng = random.Random(2)
    js = [Judgement(id=str(i), group_id=f"g{rng.randint(0, 40)}", style="s", correct=rng.random() < 0.5,
                    retrieval_correct=rng.choice([None, True, False]), kb_supported=rng.choice([None, True, False]),
                    error=("failed" if rng.random() < 0.1 else None)) for i in range(2000)]
    stats = group_stats(js)
    ids = list(stats.group_ids)
    assert ids == list(dict.fromkeys(j.group_id for j in js if not j.error))
    for name, want in _group_stats_loop(js, ids).items():
        assert np.array_equal(getattr(stats, name), want), name
    fixed = group_stats(js[:50], group_ids=[f"g{i}" for i in range(41)])
    for name, want in _group_stats_loop(js[:50], [f"g{i}" for i in range(41)]).items():
        assert np.array_equal(getattr(fixed, name), want), name
    empty = group_stats([], group_ids=["a", "b"])
    assert empty.n.tolist() == [0.0, 0.0] and empty.kb_known.tolist() == [0.0, 0.0]


def test_reused_bootstrap_resamples_are_the_drawn_ones():
    from ragdx.evaluate import stats as st

    rng = np.random.default_rng(1)
    n = rng.integers(1, 6, size=300).astype(float)
    correct = np.minimum(n, rng.integers(0, 6, size=300)).astype(float)
    gs = st.GroupStats(np.arange(300), n, correct, n, correct, correct, correct)
    st._kept.clear()
    drawn = st.bootstrap_metrics(gs, n_boot=150, seed=4)
    assert (300, 150, 4) in st._kept
    again = st.bootstrap_metrics(gs, n_boot=150, seed=4)
    assert json.dumps(again) == json.dumps(drawn)  # NaN included (kb_coverage: unknown here)
    # the same as summing the resample_weights draws directly
    sums = np.concatenate([w @ gs.matrix() for w in st.resample_weights(300, 150, np.random.default_rng(4))])
    direct = st.metrics_from_sums(sums)["accuracy"]
    lo, hi = st.interval(direct)
    assert (lo, hi) == (drawn["accuracy"]["ci_low"], drawn["accuracy"]["ci_high"])
    other = st.bootstrap_metrics(gs, n_boot=150, seed=5)
    assert json.dumps(other) != json.dumps(drawn) and (300, 150, 5) in st._kept and (300, 150, 4) not in st._kept


def test_rouge_l_can_be_left_out_and_says_so():
    from ragdx.evaluate.text_metrics import ROUGE_NOT_COMPUTED, lab_metrics

    js = [Judgement(id="1", group_id="g", style="s", correct=True, retrieval_correct=True, retrieved_ids=["a"],
                    gold_ids=["a"], answer="the cat sat", response="the cat sat on the mat"),
          Judgement(id="2", group_id="g", style="s", correct=False, retrieval_correct=False, retrieved_ids=["b"],
                    gold_ids=["a"], answer="Paris", response=None)]
    assert lab_metrics(js, rouge=False)["rouge_l"] == ROUGE_NOT_COMPUTED == "not computed (--no-rouge)"
    value = lab_metrics(js)["rouge_l"]
    assert math.isclose(value, (2 * 1.0 * 0.5 / 1.5 + 0) / 2)


def test_offline_evaluate_imports_no_heavy_module(tmp_path):
    """NLTK (with scikit-learn), openai and torch cost seconds to import; an offline evaluation
    needs none of them. A fresh interpreter, since this one has imported them already."""
    from ragdx.gen.dataset import QARecord, write_dataset
    from ragdx.rag.runner import run
    from ragdx.rag.systems import CallableSystem

    records = [QARecord(id=f"g{g}-t{t}", group_id=f"g{g}", sql_template_id="s", text_template_id=f"t{t}",
                        style=("short", "long")[t], schema="C", table="C", params={}, sql="", query=f"q{g} {t}",
                        answer_columns=["a"], answer_rows=[[f"v{g}"]], answer_text=f"v{g}", answer_kind="single",
                        gold_document_ids=[f"d{g}"], kb_supported=True) for g in range(6) for t in range(2)]
    write_dataset(tmp_path / "ds", records, {"test": True})
    run(CallableSystem(lambda q: {"answer": f"It is v{q[1]}." if q.endswith("0") else "no idea",
                                  "contexts": [{"id": f"d{q[1]}", "text": ""}]}, name="toy"),
        tmp_path / "ds", tmp_path / "run", progress=False)
    code = ("import json, sys; from ragdx.evaluate import evaluate; r = evaluate(sys.argv[1], n_boot=50, rouge=False); "
            "print(json.dumps([r.queries, r.text_metrics['rouge_l'], "
            "[m for m in ('nltk', 'openai', 'torch', 'transformers', 'sklearn') if m in sys.modules]]))")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "run")], capture_output=True, text=True,
                          check=True, timeout=scaled(300))
    queries, rouge, heavy = json.loads(done.stdout.strip().splitlines()[-1])
    assert queries == 12 and rouge == "not computed (--no-rouge)"
    assert heavy == []


def test_normalise_equals_its_definition():
    import unicodedata

    from ragdx.evaluate.judges import _ARTICLES, _SPACES, _normalise, _strip_accents

    def definition(text: str) -> str:
        text = _strip_accents(unicodedata.normalize("NFKC", text)).casefold()
        text = "".join(" " if unicodedata.category(c)[0] in "PSZC" else c for c in text)
        return _SPACES.sub(" ", _ARTICLES.sub(" ", text)).strip()

    rng = random.Random(9)
    alphabet = ("abcXYZ 019.,;:!?'\"-_/()[]{}@#$%^&*+=<>|~`\t\n\r\x00\x7f" "ÉéèçÑñÖöß ǅ Ⅻ ½ ﬁ ＡＢ　 "
                "—–…«»‘’“”€£¥©®™°±× ̈ ́ ́ Ωωαβ日本語한국어 🙂 \u200b\u00ad\ufeff\U000e0001")
    texts = ["The Cat", "a", "An apple", "THE END.", ""] + [
        "".join(rng.choices(alphabet, k=rng.randint(0, 40))) for _ in range(3000)]
    for text in texts:
        assert _normalise.__wrapped__(text) == definition(text), repr(text)


def test_write_jsonl_writes_json_bytes_exactly(tmp_path):
    """The orjson writer gives json.dumps's bytes on everything json writes; the rows that
    differ between the two (small floats, NaN, non-string keys, huge integers) fall back."""
    from ragdx.store import write_jsonl

    rows = [{"a": 1, "b": [1, 2.5, -0.0, 1e-7, 9.99e-05, 1e-05, 1e-4, 1e16, 1e-10, 5e-324]},
            {"nan": float("nan"), "inf": [float("inf"), -float("inf")], "none": None},
            {"s": 'a "quoted": colon\n\t\x00\x1f\x7f \u2028 é 日本語 😀', "e": "time-out 0.00001"},
            {1: "int key", 2.5: "float key", None: "none key"},
            {"big": 12345678901234567890123, "neg": -9223372036854775809, "ok": 2**63},
            {"nested": [{"k": {"j": [None, True, False]}}], "empty": {}, "list": [], "t": (1, 2)}]
    rows += [{"x": i / 7, "y": 10.0 ** -i, "z": str(i)} for i in range(40)]
    path = tmp_path / "rows.jsonl"
    assert write_jsonl(path, rows) == len(rows)
    want = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in rows)
    assert path.read_bytes() == want.encode("utf-8")

    # rows without floats, vouched for: a null is a None
    plain = [{"id": str(i), "error": None, "ids": ["a", "b"], "ok": i % 2 == 0} for i in range(100)]
    write_jsonl(path, plain, float_free=True)
    want = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in plain)
    assert path.read_bytes() == want.encode("utf-8")


def test_write_jsonl_refuses_what_json_refuses(tmp_path):
    import dataclasses
    import datetime

    from ragdx.store import write_jsonl

    @dataclasses.dataclass
    class D:
        a: int = 1

    for bad in (datetime.date(2020, 1, 2), D(), {1, 2}):
        with pytest.raises(TypeError):
            write_jsonl(tmp_path / "x.jsonl", [{"v": bad}])
        assert not (tmp_path / "x.jsonl").exists()


def test_iter_jsonl_finds_a_duplicate_key_deep_in_a_large_block(tmp_path):
    # the fast path checks a whole block at once: one line's duplicate among thousands of good
    # lines must still be refused, naming its line
    good = [json.dumps({"id": str(i), "v": [i, {"k": "a:b"}]}) for i in range(5000)]
    good[3210] = '{"id": "x", "v": 1, "v": 2}'
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(good) + "\n", encoding="utf-8")
    with pytest.raises(RagdxError, match="'v' appears twice") as info:
        list(iter_jsonl(path))
    assert "line 3211" in str(info.value)
    good[3210] = '{"id": "x", "v": 1}'
    path.write_text("\n".join(good) + "\n\n  \n", encoding="utf-8")
    got = list(iter_jsonl(path))
    assert [n for n, _ in got] == list(range(1, 5001))
    assert [o for _, o in got] == [json.loads(line) for line in good]
