"""Shared fixtures: real databases (SQLite always; PostgreSQL and MariaDB when reachable) and
the reference data in ../shared/data (tests that need it skip with a reason when it is absent)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("RAGDX_SHARED", REPO.parent / "shared"))
DATA = SHARED / "data"
AURP = DATA / "grammar-aurp"
SPIDER = DATA / "spider-company-employee"

# Frameworks under test phone home unless told not to (Haystack posts to PostHog); the suite
# runs offline and must not try.
for _var, _value in (("HAYSTACK_TELEMETRY_ENABLED", "False"), ("ANONYMIZED_TELEMETRY", "False"),
                     ("RAY_USAGE_STATS_ENABLED", "0"), ("DO_NOT_TRACK", "1")):
    os.environ.setdefault(_var, _value)

PG_ADMIN = os.environ.get("RAGDX_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
MY_ADMIN = os.environ.get("RAGDX_TEST_MYSQL", "mysql+pymysql://root@127.0.0.1:3306/test")


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"reference data not found: {path} (it lives in ../shared/data)")
    return path


def _reachable(url: str) -> str | None:
    try:
        engine = sa.create_engine(url, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
        engine.dispose()
        return None
    except Exception as exc:  # the reason goes into the skip message
        return str(exc).splitlines()[0]


class ScratchDatabases:
    """Creates throw-away databases on a server and drops them at the end of the session."""

    def __init__(self, admin_url: str, kind: str):
        self.admin_url = sa.engine.make_url(admin_url)
        self.kind = kind
        self.created: list[str] = []

    def new(self) -> str:
        name = f"ragdx_t_{uuid.uuid4().hex[:10]}"
        engine = sa.create_engine(self.admin_url, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(sa.text(f"CREATE DATABASE {name}" + (
                " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin" if self.kind == "mysql" else " ENCODING 'UTF8'"
                " TEMPLATE template0")))
        engine.dispose()
        self.created.append(name)
        return self.admin_url.set(database=name).render_as_string(hide_password=False)

    def drop_all(self) -> None:
        engine = sa.create_engine(self.admin_url, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            for name in self.created:
                if self.kind == "postgresql":
                    conn.execute(sa.text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :d"), {"d": name})
                conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name}"))
        engine.dispose()


def _scratch_server(admin_url: str, kind: str, label: str):
    reason = _reachable(admin_url)
    if reason:
        pytest.skip(f"{label} not reachable at {admin_url}: {reason}")
    dbs = ScratchDatabases(admin_url, kind)
    yield dbs
    dbs.drop_all()


@pytest.fixture(scope="session")
def pg_databases():
    yield from _scratch_server(PG_ADMIN, "postgresql", "PostgreSQL")


@pytest.fixture(scope="session")
def mysql_databases():
    yield from _scratch_server(MY_ADMIN, "mysql", "MariaDB/MySQL")


@pytest.fixture(params=["sqlite", "postgresql", "mysql"])
def empty_db(request, tmp_path):
    """A URL of an empty, writable database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db.sqlite'}"
    fixture = "pg_databases" if request.param == "postgresql" else "mysql_databases"
    return request.getfixturevalue(fixture).new()


def pytest_collection_modifyitems(config, items):
    # pytest-timeout's limit (300 s in pyproject, or a test's own mark) stretches with the load the
    # suite starts under: on a busy runner a test is slower, not wrong (tests/support/timing.py)
    from tests.support.timing import time_scale

    scale = time_scale()
    if scale <= 1.0:
        return
    default = float(config.getini("timeout") or 0)
    for item in items:
        mark = item.get_closest_marker("timeout")
        base = float(mark.args[0]) if mark is not None and mark.args else default
        if base > 0:
            item.add_marker(pytest.mark.timeout(base * scale), append=False)
