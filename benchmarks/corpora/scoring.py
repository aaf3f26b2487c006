"""The scorer every corpus under ``benchmarks/corpora`` shares: a ragdx dataset's evidence linking
against a corpus's recorded truth. Each corpus's ``score_linking.py`` sets the one thing that
differs, the columns that name a row of each of its tables (``Needs.name_columns``), and is the
command to run. Standard library only; nothing from ragdx is imported.

The facts a record needs come from its SQL and the database, never from ragdx's `facts`.  The
SQL's SELECT list, FROM ... JOIN ... ON chain (aliases and quoted identifiers included) and WHERE
clause are parsed; the same FROM and WHERE are run again selecting the primary key of every
joined table.  For each row found, the needed facts are
  * every join hop, as the foreign-key column of the row holding it.  When that column belongs to
    a composite primary key the hop is the existence of the row, keyed by the table's last key
    column;
  * every selected column, except one that merely names a joined entity: the entity's name
    columns (``Needs.name_columns``) or its whole primary key.  A selected attribute of a
    composite-key row implies that row, so the row's existence is not listed apart.
A record is supported when every needed fact of every answer row is stated exactly somewhere (a
split fact counts: its parts are stated exactly); a record without answer rows has no verdict.
The gold documents of a record are the documents stating one of its needed facts exactly, and
both documents of a split fact.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import sys
from collections import Counter, defaultdict

DOC_EXTS = (".md", ".txt", ".html", ".htm", ".pdf")


def stem(doc_id):
    """ragdx's id for a document of a folder corpus: its relative path without the extension."""
    base, ext = os.path.splitext(doc_id)
    return base if ext.lower() in DOC_EXTS else doc_id


# ----------------------------------------------------------------------------------------------
# a small SQL reader: enough for ragdx's template SQL (SELECT ... FROM t [AS a] JOIN ... ON x = y ... WHERE ...)
# ----------------------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
    (?P<str>'(?:[^']|'')*')
  | (?P<qid>"(?:[^"]|"")*"|\[[^\]]*\]|`[^`]*`)
  | (?P<word>[A-Za-z_][A-Za-z0-9_$]*)
  | (?P<num>\d+(?:\.\d+)?)
  | (?P<op><>|!=|<=|>=|[=<>(),.*;+\-/%])
  | (?P<ws>\s+)
""",
    re.X,
)


def tokens(sql):
    out, i = [], 0
    while i < len(sql):
        m = _TOKEN.match(sql, i)
        if not m:
            raise ValueError(f"cannot read SQL at {sql[i : i + 20]!r}")
        i = m.end()
        kind = m.lastgroup
        if kind == "ws":
            continue
        text = m.group()
        out.append((kind, text, m.start(), m.end()))
    return out


def ident(tok):
    kind, text = tok[0], tok[1]
    if kind == "qid":
        q = text[0]
        inner = text[1:-1]
        return inner.replace('""', '"') if q == '"' else inner
    if kind == "word":
        return text
    raise ValueError(f"not an identifier: {text}")


def _kw(tok, *words):
    return tok[0] == "word" and tok[1].upper() in words


def parse_sql(sql):
    """-> dict(cols=[(alias, column)], from_sql, where_sql, aliases={alias: table}, edges=[(a1,c1,a2,c2)],
    where_aliases={alias})."""
    toks = tokens(sql.strip().rstrip(";"))
    depth, marks = 0, {}
    for i, t in enumerate(toks):
        if t[1] == "(":
            depth += 1
        elif t[1] == ")":
            depth -= 1
        elif depth == 0 and t[0] == "word":
            u = t[1].upper()
            if u in ("SELECT", "FROM", "WHERE", "ORDER", "GROUP", "LIMIT", "HAVING") and u not in marks:
                marks[u] = i
    if "SELECT" not in marks or "FROM" not in marks:
        raise ValueError(f"cannot parse: {sql}")
    ends = sorted(marks.values()) + [len(toks)]

    def span(key):
        if key not in marks:
            return []
        i = marks[key]
        return toks[i + 1 : min(e for e in ends if e > i)]

    sel, frm, whr = span("SELECT"), span("FROM"), span("WHERE")
    if sel and _kw(sel[0], "DISTINCT"):
        sel = sel[1:]
    src = sql.strip().rstrip(";")
    from_sql = src[frm[0][2] : frm[-1][3]]
    where_sql = src[whr[0][2] : whr[-1][3]] if whr else ""

    # FROM t [AS a] { [INNER|LEFT] JOIN t [AS a] ON x.c = y.c [AND ...] }
    aliases, edges = {}, []
    i = 0

    def table_ref(i):
        t = ident(frm[i])
        i += 1
        a = t
        if i < len(frm) and _kw(frm[i], "AS"):
            a = ident(frm[i + 1])
            i += 2
        elif (
            i < len(frm)
            and frm[i][0] in ("word", "qid")
            and not _kw(frm[i], "JOIN", "INNER", "LEFT", "ON", "CROSS", "RIGHT", "OUTER")
        ):
            a = ident(frm[i])
            i += 1
        aliases[a] = t
        return i

    i = table_ref(0)
    base = list(aliases)[0]
    while i < len(frm):
        if _kw(frm[i], "INNER", "LEFT", "RIGHT", "OUTER", "CROSS"):
            i += 1
            continue
        if _kw(frm[i], "JOIN"):
            i = table_ref(i + 1)
            continue
        if _kw(frm[i], "ON", "AND"):
            # a.c = b.c
            q = frm[i + 1 : i + 8]
            if len(q) == 7 and q[1][1] == "." and q[3][1] == "=" and q[5][1] == ".":
                edges.append((ident(q[0]), ident(q[2]), ident(q[4]), ident(q[6])))
                i += 8
                continue
        i += 1

    def columns(ts):
        out = []
        for j, t in enumerate(ts):
            if t[0] in ("word", "qid") and j + 2 < len(ts) and ts[j + 1][1] == "." and ts[j + 2][0] in ("word", "qid"):
                out.append((ident(t), ident(ts[j + 2])))
        return out

    cols = columns(sel)
    if not cols:  # unqualified select list on one table
        parts, cur = [], []
        for t in sel:
            if t[1] == ",":
                parts.append(cur)
                cur = []
            else:
                cur.append(t)
        parts.append(cur)
        for p in parts:
            if p and p[0][0] in ("word", "qid"):
                cols.append((base, ident(p[0])))
    wa = {a for a, _ in columns(whr)} or {base}
    # the columns the WHERE clause names each entity by (a.col = 'literal', or col = 'literal' on one table)
    where_cols = defaultdict(list)
    for j, t in enumerate(whr):
        if t[1] == "=" and j + 1 < len(whr) and whr[j + 1][0] in ("str", "num"):
            if j >= 3 and whr[j - 2][1] == ".":
                where_cols[ident(whr[j - 3])].append(ident(whr[j - 1]))
            elif j >= 1 and whr[j - 1][0] in ("word", "qid"):
                where_cols[base].append(ident(whr[j - 1]))
    return {
        "cols": cols,
        "from_sql": from_sql,
        "where_sql": where_sql,
        "aliases": aliases,
        "edges": edges,
        "where_aliases": wa,
        "where_cols": dict(where_cols),
    }


class Needs:
    """Needs(db)(sql) -> for each answer row of SQL, the sorted list of fact keys it needs."""

    #: the columns by which documents and ragdx name a row of each table (answering with them is
    #: answering with the hop); each corpus's scorer sets its own
    name_columns: dict = {}

    def __init__(self, db_path):
        self.con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        self._pk = {}
        self._cache = {}

    def pks(self, table):
        if table not in self._pk:
            info = self.con.execute(f'PRAGMA table_info("{table}")').fetchall()
            self._pk[table] = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5] > 0]
        return self._pk[table]

    def row_key(self, table, vals):
        return f"{table}.{self.pks(table)[-1]}@" + "|".join(str(v) for v in vals)

    def _holder(self, al, a1, c1, a2, c2):
        """Which side of a join's equality holds the foreign key: the side whose column is not its
        table's whole primary key, facing a side whose column is."""
        for (a, c), (b, e) in (((a1, c1), (a2, c2)), ((a2, c2), (a1, c1))):
            if self.pks(al[b]) == [e] and self.pks(al[a]) != [c]:
                return a, c
        return None

    def __call__(self, sql):
        if sql in self._cache:
            return self._cache[sql]
        p = parse_sql(sql)
        al = p["aliases"]
        order = list(al)
        sel = [f'"{a}"."{c}"' for a in order for c in self.pks(al[a])]
        q = f"SELECT {', '.join(sel)} FROM {p['from_sql']}" + (f" WHERE {p['where_sql']}" if p["where_sql"] else "")
        out = []
        for row in self.con.execute(q).fetchall():
            vals, i = {}, 0
            for a in order:
                n = len(self.pks(al[a]))
                vals[a] = tuple(row[i : i + n])
                i += n
            need, implied = set(), set()
            for e in p["edges"]:
                side = self._holder(al, *e)
                if side is None:
                    continue
                a, c = side
                t = al[a]
                if len(self.pks(t)) > 1 and c in self.pks(t):
                    need.add(self.row_key(t, vals[a]))
                else:
                    need.add(f"{t}.{c}@" + "|".join(str(v) for v in vals[a]))
            for a, c in p["cols"]:
                t = al.get(a, a)
                if a not in vals:
                    continue
                joined = a not in p["where_aliases"]
                if joined and (c in self.name_columns.get(t, ()) or [c] == self.pks(t)):
                    continue
                if not joined and [c] == self.pks(t) and p["where_cols"].get(a):
                    # the key of the entity the query names: the fact is the name it was asked by
                    # ('the code of Foundation design' is services.name@GEO-2, as ragdx keys it)
                    for wc in p["where_cols"][a]:
                        need.add(f"{t}.{wc}@" + "|".join(str(v) for v in vals[a]))
                    continue
                need.add(f"{t}.{c}@" + "|".join(str(v) for v in vals[a]))
                if len(self.pks(t)) > 1:
                    implied.add(self.row_key(t, vals[a]))
            need -= implied
            out.append(sorted(need))
        self._cache[sql] = out
        return out


def canon_ragdx(fact, needs):
    """ragdx may key a composite-key row by another of its key columns; map it to the row key used here."""
    try:
        t, rest = fact.split(".", 1)
        c, k = rest.split("@", 1)
    except ValueError:
        return fact
    cols = needs.pks(t)
    if len(cols) > 1 and c in cols:
        return f"{t}.{cols[-1]}@{k}"
    return fact


def pct(a, b):
    return f"{100.0 * a / b:5.1f} %" if b else "   n/a"


def score(dataset, truth_path, db=None, needs_class=Needs):
    truth = json.load(open(truth_path, encoding="utf-8"))
    db = db or os.path.join(os.path.dirname(os.path.abspath(truth_path)), truth["database"])
    needs = needs_class(db)
    exact_docs, approx_docs, how_of = defaultdict(set), defaultdict(set), {}
    for f in truth["facts"]:
        s = stem(f["doc_id"])
        if f["exact"]:
            exact_docs[f["fact_key"]].add(s)
            how_of.setdefault((f["fact_key"], s), (f["how"], f["form"]))
        else:
            approx_docs[f["fact_key"]].add(s)
    for sp in truth["split_facts"]:  # both documents of a split fact are needed to read it
        for doc in sp["doc_ids"]:
            s = stem(doc)
            exact_docs[sp["fact_key"]].add(s)
            how_of.setdefault((sp["fact_key"], s), ("split", "split"))
    distractors = {stem(x) for x in truth["distractor_doc_ids"]}

    recs = [json.loads(line) for line in open(os.path.join(dataset, "records.jsonl"), encoding="utf-8") if line.strip()]
    tp = fp = fn = fp_approx = 0
    conf = Counter()
    how_tot, how_hit, form_tot, form_hit, fp_kind = Counter(), Counter(), Counter(), Counter(), Counter()
    lacking = unparsed = 0
    per_table = defaultdict(lambda: [0, 0, 0])
    for r in recs:
        try:
            rows = needs(r["sql"])
        except (ValueError, sqlite3.Error):
            unparsed += 1
            continue
        need = sorted({k for row in rows for k in row})
        gold = set().union(*(exact_docs.get(k, set()) for k in need)) if need else set()
        approx = set().union(*(approx_docs.get(k, set()) for k in need)) if need else set()
        pred = {stem(x) for x in r.get("gold_document_ids") or []}
        t_, p_, n_ = len(pred & gold), len(pred - gold), len(gold - pred)
        tp, fp, fn = tp + t_, fp + p_, fn + n_
        fp_approx += len((pred - gold) & approx)
        pt = per_table[r.get("table") or "?"]
        pt[0] += t_
        pt[1] += p_
        pt[2] += n_
        for doc in pred - gold:
            fp_kind[
                "distractor document"
                if doc in distractors
                else "states the fact only approximately"
                if doc in approx
                else "states no needed fact"
            ] += 1
        for k in need:
            for doc in exact_docs.get(k, ()):
                how, form = how_of[(k, doc)]
                how_tot[how] += 1
                form_tot[form] += 1
                if doc in pred:
                    how_hit[how] += 1
                    form_hit[form] += 1
        t_sup = None if not rows else all(k in exact_docs for row in rows for k in row)
        conf[(t_sup, r.get("kb_supported"))] += 1
        theirs = {canon_ragdx(x, needs) for x in r.get("facts") or []}
        if any(k not in theirs for k in need):
            lacking += 1
    judged = sum(v for (t_, _), v in conf.items() if t_ is not None)
    agree = sum(v for (t_, g), v in conf.items() if t_ is not None and g is not None and bool(g) == t_)
    return {
        "records": len(recs),
        "records_unparsed": unparsed,
        "gold_precision": tp / (tp + fp) if tp + fp else None,
        "gold_precision_lenient": (tp + fp_approx) / (tp + fp) if tp + fp else None,
        "gold_recall": tp / (tp + fn) if tp + fn else None,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "fp_approx": fp_approx,
        "kb_supported_accuracy": agree / judged if judged else None,
        "kb_supported_judged": judged,
        "kb_supported_confusion": {f"truth={k[0]} ragdx={k[1]}": v for k, v in sorted(conf.items(), key=str)},
        "recall_by_how": {k: [how_hit[k], how_tot[k]] for k in sorted(how_tot)},
        "recall_by_form": {k: [form_hit[k], form_tot[k]] for k in sorted(form_tot)},
        "false_positive_kinds": dict(sorted(fp_kind.items())),
        "records_whose_ragdx_facts_lack_a_needed_fact": lacking,
        "by_table": {k: {"tp": v[0], "fp": v[1], "fn": v[2]} for k, v in sorted(per_table.items())},
        "_conf": conf,
    }


def report(res, truth_name):
    tp, fp, fn = res["tp"], res["fp"], res["fn"]
    conf = res["_conf"]
    print(f"records: {res['records']}   (truth: {truth_name}; SQL not understood: {res['records_unparsed']})")
    print(
        f"gold documents, micro over records: precision {pct(tp, tp + fp)}  recall {pct(tp, tp + fn)}"
        f"   (tp {tp}, fp {fp}, fn {fn}; precision counting approximate statements as right: "
        f"{pct(tp + res['fp_approx'], tp + fp)})"
    )
    judged = res["kb_supported_judged"]
    agree = round((res["kb_supported_accuracy"] or 0) * judged)
    print(f"kb_supported accuracy: {pct(agree, judged)} of {judged} records with an answer")
    print("  truth \\ ragdx     True   False    None")
    for t_ in (True, False, None):
        print(f"  {str(t_):<14}" + "".join(f"{conf[(t_, g)]:>8}" for g in (True, False, None)))
    print("statements found (document of a needed fact in gold_document_ids), by how:")
    for k, (hit, tot) in sorted(res["recall_by_how"].items(), key=lambda kv: (-kv[1][1], kv[0])):
        print(f"  {k:<22}{hit:>7} / {tot:<7}{pct(hit, tot)}   missed {tot - hit}")
    print("by form of the value:")
    for k, (hit, tot) in sorted(res["recall_by_form"].items(), key=lambda kv: (-kv[1][1], kv[0])):
        print(f"  {k:<22}{hit:>7} / {tot:<7}{pct(hit, tot)}")
    fk = res["false_positive_kinds"]
    print(
        "false-positive gold documents:",
        ", ".join(f"{k} {v}" for k, v in sorted(fk.items(), key=lambda kv: -kv[1])) or "none",
    )
    print("per table of the record (tp / fp / fn):")
    for k, v in res["by_table"].items():
        print(
            f"  {k:<26}{v['tp']:>6} {v['fp']:>6} {v['fn']:>6}   P {pct(v['tp'], v['tp'] + v['fp'])}  "
            f"R {pct(v['tp'], v['tp'] + v['fn'])}"
        )
    print(
        f"records whose ragdx `facts` lack a fact needed here: "
        f"{res['records_whose_ragdx_facts_lack_a_needed_fact']} of {res['records']}"
    )


def main(argv=None, *, here, corpus, needs_class=Needs):
    """The command line of a corpus's ``score_linking.py`` (``here``: its folder)."""
    ap = argparse.ArgumentParser(description=f"Score a ragdx dataset's evidence linking on {corpus}.")
    ap.add_argument("dataset")
    ap.add_argument("--truth", default=os.path.join(here, "truth.json"))
    ap.add_argument("--db", default=None, help="default: the truth's database, relative to truth.json")
    ap.add_argument("--json", default=None, help="also write the figures to this JSON file")
    a = ap.parse_args(argv)
    res = score(a.dataset, a.truth, a.db, needs_class)
    report(res, os.path.basename(a.truth))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as fh:
            json.dump({k: v for k, v in res.items() if not k.startswith("_")}, fh, indent=1, sort_keys=True)
    return 0

