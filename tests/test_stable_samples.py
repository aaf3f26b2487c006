"""Issue 22 item 5: the default sample depends on the data and the template's meaning, not on how
the identifiers are spelled, so one database on SQLite, PostgreSQL and MariaDB under different
spellings gives the same first dataset."""

from __future__ import annotations

import json

from ragdx import generate_dataset
from ragdx.db.load import load_tables


def _schema(album: str, title: str, artist: str, name: str, year: str, artist_id: str) -> dict:
    def col(n: str, t: str, pk: bool = False) -> dict:
        return {"name": n, "type": t, "not_null": pk, "primary_key": pk}

    return {
        artist: {"columns": [col("id", "INTEGER", True), col(name, "VARCHAR(60)")], "primary_key": ["id"],
                 "foreign_keys": []},
        album: {"columns": [col("id", "INTEGER", True), col(title, "VARCHAR(60)"), col(year, "INTEGER"),
                            col(artist_id, "INTEGER")], "primary_key": ["id"],
                "foreign_keys": [{"column": artist_id, "ref_table": artist, "ref_column": "id"}]},
    }


def _rows(album: str, title: str, artist: str, name: str, year: str, artist_id: str) -> dict:
    artists = [{"id": i, name: f"Artist {chr(65 + i)}{chr(97 + i)}"} for i in range(12)]
    albums = [{"id": i, title: f"Album {i:02d} of the year", year: 1960 + i, artist_id: i % 12} for i in range(40)]
    return {artist: artists, album: albums}


def _sample(url: str, tmp, spelling: tuple[str, ...]) -> list[tuple]:
    load_tables(url, _schema(*spelling), _rows(*spelling))
    out = generate_dataset(url, tmp, max_groups=3, styles=("short",), n=1)
    records = [json.loads(line) for line in (out / "records.jsonl").open()]
    # what was asked about and answered, without the spelling of the keys
    return sorted((tuple(sorted(map(str, r["params"].values()))), r["answer_text"]) for r in records)


def test_one_database_under_other_spellings_gives_the_same_first_dataset(empty_db, tmp_path):
    reference = _sample(f"sqlite:///{tmp_path / 'camel.sqlite'}", tmp_path / "camel",
                        ("Album", "Title", "Artist", "Name", "ReleaseYear", "ArtistId"))
    other = _sample(empty_db, tmp_path / "lower", ("album", "title", "artist", "name", "releaseyear", "artistid"))
    assert len(reference) >= 6  # two templates at least, each capped at 3 of its 40 groups
    assert other == reference
