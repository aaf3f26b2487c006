"""Issue 21, evidence linking, sixth round: general reading rules found from the pooled misses and
false positives of the nine development corpora. Each rule names the document form it reads (not a
corpus's vocabulary), has a minimal repro that fails on the code before it, and a near miss that
must stay unlinked."""

from __future__ import annotations

import pytest

from ragdx.kb.structure import split_cells
from tests.support.linking import gold
from tests.support.linking import world as make_world


def _gold(world, docs: dict[str, str], *facts: str) -> list[list[str]]:
    return gold(world, docs, *([f] for f in facts))


@pytest.fixture()
def timetable(tmp_path):
    return make_world(tmp_path / "t.sqlite", """
        CREATE TABLE sites (site_code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE clinics (clinic_code TEXT PRIMARY KEY, name TEXT NOT NULL, weekday TEXT,
                              site_code TEXT REFERENCES sites(site_code));
        INSERT INTO sites VALUES ('WGH', 'Wendlebury General Hospital'), ('SMK', 'St Mark''s Hospital');
        INSERT INTO clinics VALUES ('ENT-01', 'Ear Clinic', 'Friday', 'SMK'),
                                   ('ENT-02', 'Nose Clinic', 'Friday', 'WGH'),
                                   ('ENT-03', 'Throat Clinic', 'Thursday', 'WGH');
    """)


def test_a_plain_text_grid_with_a_bare_first_header_cell_keeps_its_columns():
    """A plain-text grid (days down, sites across) whose header is indented to a bare "|" leaves its
    first cell blank; a row ending in an empty cell keeps it. A Markdown row's outer pipes are borders."""
    assert split_cells("       | WGH          | SMK          ") == ["", "WGH", "SMK"]
    assert split_cells("Mon    |              |              ") == ["Mon", "", ""]
    assert split_cells("Fri    | ENT-02 08:30 | ENT-01 13:00") == ["Fri", "ENT-02 08:30", "ENT-01 13:00"]
    # near misses: Markdown rows, indented or not, closed or not
    assert split_cells("| a | b |") == split_cells("  | a | b |") == split_cells("| a | b") == ["a", "b"]
    assert split_cells("Mon | x |") == ["Mon", "x"]


def test_a_plain_text_grid_gives_each_cell_its_columns_site(timetable):
    """Under a header "       | WGH | SMK" the Friday row's second cell runs at WGH and its third at
    SMK; read without the blank first cell, every cell was one column to the left."""
    grid = ("ENT - WEEKLY TIMETABLE\n\n       | WGH                  | SMK                  \n"
            "---------------------------------------------------\n"
            "Thu    |                      | ENT-03 13:00-16:30   \n"
            "Fri    | ENT-02 08:30-11:00   | ENT-01 13:00-16:00   \n")
    assert _gold(timetable, {"grid": grid}, "clinics.site_code@ENT-02", "clinics.site_code@ENT-01",
                 "clinics.weekday@ENT-02") == [["grid"], ["grid"], ["grid"]]
    # ENT-03 is in the SMK column of this grid, not at its own site (WGH)
    assert _gold(timetable, {"grid": grid}, "clinics.site_code@ENT-03") == [[]]


@pytest.fixture()
def accounts(tmp_path):
    return make_world(tmp_path / "a.sqlite", """
        CREATE TABLE clients (client_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, city TEXT,
                              contact TEXT, contact_title TEXT, credit_limit REAL);
        INSERT INTO clients VALUES (14, 'Severn Valley Railway Trust', 'Bewdley', 'Sue Pritchard', 'Treasurer', 150000),
                                   (17, 'Humber Estuary Ports Ltd', 'Hull', 'Ian Dale', 'Buyer', 150000),
                                   (30, 'Confluence Immobilier SA', 'Lyon', 'Camille Garnier', 'Marketing Manager',
                                    100000);
    """)


REGISTER = ("CREDIT LIMIT REGISTER (finance use only)\nAccount   Limit (EUR)\nC-014     150,000.00\n"
            "C-017     150,000.00\nC-030     100,000.00\n\nLimits are reviewed each April.\n")


def test_a_label_given_as_a_definition_lists_term_joins_two_documents(accounts):
    """A register gives each account's limit by its number; the client's page gives its number as a
    definition list ("Account number" over ": C-030"). The other client's page names C-017."""
    page = "# Confluence Immobilier SA\n\nAccount number\n: C-030\n\nLocation\n: Lyon, FR\n"
    other = "# Humber Estuary Ports Ltd\n\nAccount number\n: C-017\n\nLocation\n: Hull\n"
    docs = {"register": REGISTER, "page": page, "other": other}
    assert _gold(accounts, docs, "clients.credit_limit@30") == [["page", "register"]]
    # the Humber page's account holds 150,000 too, but no page gives account C-014 for the trust
    assert _gold(accounts, docs, "clients.credit_limit@14") == [[]]


def test_a_label_written_after_its_columns_word_in_prose_joins_two_documents(accounts):
    """"Account C-014." opening the client's page is its account number, as "| Account | C-014 |"
    would be; a page writing another number ("Account C-030", limit 100,000) gives the trust nothing."""
    page = "# Severn Valley Railway Trust\n\nAccount C-014. A rail client based in Bewdley.\n"
    assert _gold(accounts, {"register": REGISTER, "page": page}, "clients.credit_limit@14") == [["page", "register"]]
    wrong = "# Severn Valley Railway Trust\n\nAccount C-030. A rail client based in Bewdley.\n"
    assert _gold(accounts, {"register": REGISTER, "page": wrong}, "clients.credit_limit@14") == [[]]


def test_a_code_column_labels_a_register_and_a_note_follows_the_code(accounts):
    """A register keyed by a column called only "Code" ("SUP-030   Camille Garnier   Marketing
    Manager") and a profile's "Supplier code: SUP-030 (see the register)": the note in brackets is
    no part of the code. A profile naming another code gives nothing."""
    register = ("CONTACT REGISTER (internal)\nCode      Contact              Title\n"
                "SUP-030   Camille Garnier      Marketing Manager\nSUP-017   Ian Dale             Buyer\n")
    page = "# Confluence Immobilier SA\n\nSupplier code: SUP-030 (contact details: see the contact register).\n"
    docs = {"register": register, "page": page}
    assert _gold(accounts, docs, "clients.contact_title@30") == [["page", "register"]]
    other = "# Confluence Immobilier SA\n\nSupplier code: SUP-017 (contact details: see the register).\n"
    assert _gold(accounts, {"register": register, "page": other}, "clients.contact_title@30") == [[]]


def test_a_word_every_rows_name_opens_with_is_a_kind_not_a_name(tmp_path):
    """Every ship's name opens with "MV": a fleet list's "| Ardmair | 2021 | 300 |" under "Vessel" is
    MV Ardmair, though a port is called Ardmair too. Where the names open with different words, the
    rest of one names nothing ("Lass" alone is no ship)."""
    fleet = make_world(tmp_path / "f.sqlite", """
        CREATE TABLE ports (port_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, berths INTEGER);
        CREATE TABLE vessels (vessel_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, built_year INTEGER,
                              passengers INTEGER, home_port_id INTEGER REFERENCES ports(port_id));
        INSERT INTO ports VALUES (1, 'Ardmair', 1), (2, 'Kinlochbrae', 3);
        INSERT INTO vessels VALUES (1, 'MV Ardmair', 2021, 300, 1), (2, 'MV Cleit', 2010, 80, 2),
                                   (3, 'MV Isle of Rona', 2007, 450, 2);
    """)
    table = ("# Fleet list\n\n| Vessel | Built | Passengers |\n|---|---|---|\n| Ardmair | 2021 | 300 |\n"
             "| Cleit | 2010 | 80 |\n| Isle of Rona | 2007 | 450 |\n")
    assert _gold(fleet, {"fleet": table}, "vessels.passengers@1", "vessels.built_year@3") == [["fleet"], ["fleet"]]
    mixed = make_world(tmp_path / "m.sqlite", """
        CREATE TABLE vessels (vessel_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, passengers INTEGER);
        INSERT INTO vessels VALUES (1, 'MV Ardmair', 300), (2, 'Tobarsay Lass', 180), (3, 'MV Cleit', 80);
    """)
    assert _gold(mixed, {"fleet": table}, "vessels.passengers@1") == [[]]


@pytest.fixture()
def staffing(tmp_path):
    return make_world(tmp_path / "s.sqlite", """
        CREATE TABLE projects (project_code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT);
        CREATE TABLE project_staff (project_code TEXT REFERENCES projects(project_code),
                                    staff_id INTEGER REFERENCES staff(staff_id), role TEXT, hours INTEGER,
                                    PRIMARY KEY (project_code, staff_id));
        INSERT INTO projects VALUES ('BH-24016', 'Cathedral Close Lighting'), ('BH-25010', 'Quayside Steps');
        INSERT INTO staff VALUES (12, 'Ewan', 'Fraser'), (13, 'Miriam', 'Cole');
        INSERT INTO project_staff VALUES ('BH-24016', 12, 'Project Lead', 120), ('BH-24016', 13, 'Checker', 40),
                                         ('BH-25010', 12, 'Checker', 200);
    """)


ALLOCATION = ("STAFF ALLOCATION (from the payroll system, names suppressed)\n\n"
              "Job       Payroll  Role                Budget hrs\n"
              "BH-24016  P-1012   Project Lead               120\n"
              "BH-24016  P-1013   Checker                     40\n"
              "BH-25010  P-1012   Checker                    200\n")


def test_a_label_standing_for_a_person_is_decoded_by_another_documents_list(staffing):
    """An allocation gives each job's people by payroll number only; a payroll list decodes the
    numbers. Together they say Ewan Fraser (P-1012) leads BH-24016 for 120 hours."""
    payroll = "PAYROLL NUMBERS (HR use only)\n\nP-1012  Fraser, Ewan\nP-1013  Cole, Miriam\n"
    docs = {"allocation": ALLOCATION, "payroll": payroll}
    assert _gold(staffing, docs, "project_staff.role@BH-24016|12", "project_staff.hours@BH-24016|12",
                 "project_staff.role@BH-24016|13") == [["allocation", "payroll"]] * 3
    # a list that gives P-1012 to someone else decodes nothing for Ewan Fraser; nor does a list whose
    # opening does not name the payroll column (a phone list keyed the same way)
    swapped = "PAYROLL NUMBERS (HR use only)\n\nP-1012  Cole, Miriam\nP-1013  Fraser, Ewan\n"
    assert _gold(staffing, {"allocation": ALLOCATION, "payroll": swapped}, "project_staff.role@BH-24016|12") == [[]]
    phones = "OFFICE EXTENSIONS\n\nP-1012  Fraser, Ewan  4431\n"
    assert _gold(staffing, {"allocation": ALLOCATION, "phones": phones}, "project_staff.role@BH-24016|12") == [[]]
