"""Copy a SQLite database into PostgreSQL or MariaDB (tests that compare engines on the same data)."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects import mysql


def copy_sqlite(src: Path, url: str) -> None:
    """A SQLite database's tables and rows (Northwind, the demo) into another engine, through
    SQLAlchemy, as a user would."""
    source = sa.create_engine(f"sqlite:///{src}")
    insp = sa.inspect(source)
    md = sa.MetaData()
    kinds: dict[str, dict[str, str]] = {}
    for name in insp.get_table_names():
        pk = insp.get_pk_constraint(name)["constrained_columns"]
        fks = {fk["constrained_columns"][0]: fk for fk in insp.get_foreign_keys(name)}
        cols = []
        kinds[name] = {}
        for c in insp.get_columns(name):
            t = str(c["type"]).upper()
            keyish = c["name"] in pk or c["name"] in fks
            if "INT" in t:
                typ = sa.Integer()
            elif t == "REAL":
                typ = sa.REAL()
            elif "NUMERIC" in t:
                typ = sa.Numeric(18, 4)
            elif t == "DATETIME":
                typ = sa.DateTime()
            elif t == "DATE":
                typ = sa.Date()
            elif "BLOB" in t:
                typ = sa.LargeBinary().with_variant(mysql.LONGBLOB(), "mysql", "mariadb")
            else:
                typ = sa.String(255) if keyish else sa.Text()
            kinds[name][c["name"]] = t
            args = []
            if c["name"] in fks:
                fk = fks[c["name"]]
                args.append(sa.ForeignKey(f"{fk['referred_table']}.{fk['referred_columns'][0]}"))
            cols.append(sa.Column(c["name"], typ, *args, primary_key=c["name"] in pk,
                                  autoincrement=False))
        sa.Table(name, md, *cols)
    target = sa.create_engine(url)
    md.create_all(target)
    raw = sqlite3.connect(src)
    with target.begin() as conn:
        for table in md.sorted_tables:
            names = [c.name for c in table.columns]
            rows = raw.execute(f'SELECT {", ".join(chr(34) + n + chr(34) for n in names)} '
                               f'FROM "{table.name}"').fetchall()
            out = []
            for row in rows:
                item = {}
                for n, v in zip(names, row, strict=True):
                    t = kinds[table.name][n]
                    if v is not None and t == "DATETIME":
                        v = datetime.fromisoformat(v)
                    elif v is not None and t == "DATE":
                        v = date.fromisoformat(v[:10])
                    item[n] = v
                out.append(item)
            # a self-reference (Employees.ReportsTo) needs the referenced rows in first
            self_fks = [fk.parent.name for fk in table.foreign_keys if fk.column.table is table]
            done: set = set()
            while out:
                ready = [row for row in out
                         if all(row[c] is None or row[c] in done for c in self_fks)]
                assert ready, f"cycle in {table.name}"
                conn.execute(table.insert(), ready)
                pk = [c.name for c in table.primary_key.columns]
                done |= {row[pk[0]] for row in ready}
                out = [row for row in out if row not in ready]
    raw.close()
    target.dispose()
    source.dispose()
