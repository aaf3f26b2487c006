"""ragdx in ten lines: dataset → run → evaluation → report, offline, on the embedded demo database.

    .venv/bin/python examples/quickstart.py [OUT_DIR]

The system under test is a plain function (a LangChain runnable, LlamaIndex query engine or
Haystack pipeline would do as well): keyword overlap over the knowledge base, and the sentence
of the best document that shares most words with the question as the answer.
"""

import re
import sys
import tempfile
from pathlib import Path

import ragdx
from ragdx.demo.database import build_demo_database
from ragdx.rag.corpus import load_corpus

out = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="ragdx-quickstart-"))
db = f"sqlite:///{build_demo_database(out / 'demo.sqlite', overwrite=True)}"


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def my_rag(query: str) -> dict:
    docs = sorted(load_corpus(out / "kb"), key=lambda d: -len(words(query) & words(d.text)))[:3]
    sentences = [s for d in docs for s in re.split(r"(?<=\.)\s+|\n+", d.text) if s.strip()]
    answer = max(sentences, key=lambda s: len(words(query) & words(s)))
    return {"answer": answer, "contexts": [{"id": d.id, "text": d.text} for d in docs]}


# --- the ten lines -------------------------------------------------------------------------
dataset = ragdx.generate_dataset(db, out / "dataset", kb=out / "kb", omit=["Staff.Office"], max_groups=2,
                                 per_group=1, overwrite=True)
ragdx.run(my_rag, dataset, out / "runs" / "mine", progress=False)
result = ragdx.evaluate(out / "runs" / "mine", judge="contains", n_boot=200)
print("accuracy", result.overall.accuracy, "| refined accuracy R", result.overall.refined_accuracy)
print("blame", result.blame["all"].to_dict() if "all" in result.blame else result.blame)
print("report →", ragdx.report(out / "runs" / "mine", out / "report.md", n_boot=200))
