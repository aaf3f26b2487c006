"""Issue 21, evidence linking, fifth round: readings found on Ashby Fold College (a development
corpus since its blind score) that carry to corpora of other kinds (Wexcombe Press gained most).
Each rule has a minimal repro that fails on the code before it, and a near miss that must stay
unlinked."""

from __future__ import annotations

import pytest

from tests.support.linking import gold
from tests.support.linking import world as make_world


@pytest.fixture()
def college(tmp_path):
    return make_world(tmp_path / "c.sqlite", """
            CREATE TABLE programmes (code TEXT PRIMARY KEY, name TEXT NOT NULL, mode TEXT, intake INTEGER);
            CREATE TABLE modules (module_code TEXT PRIMARY KEY, title TEXT NOT NULL UNIQUE, credits INTEGER);
            CREATE TABLE programme_modules (programme_code TEXT REFERENCES programmes(code),
                                            module_code TEXT REFERENCES modules(module_code),
                                            year_of_study INTEGER, PRIMARY KEY (programme_code, module_code));
            INSERT INTO programmes VALUES ('BSENV', 'Environmental Science', 'full-time', 90),
                                          ('BSENP', 'Environmental Science', 'part-time', 12),
                                          ('BSGEO', 'Physical Geography', 'full-time', 60);
            INSERT INTO modules VALUES ('ENV1020', 'Data Analysis for Scientists', 20),
                                       ('GEO2010', 'Glacial Geomorphology', 20);
            INSERT INTO programme_modules VALUES ('BSGEO', 'ENV1020', 1), ('BSGEO', 'GEO2010', 2),
                                                 ('BSENV', 'ENV1020', 1), ('BSENP', 'ENV1020', 2);
        """)


def _gold(world, docs: dict[str, str], *facts: str) -> list[list[str]]:
    return gold(world, docs, *([f] for f in facts))


def test_a_name_no_other_row_shares_names_its_row_though_the_column_is_not_unique(college):
    """Two programmes are both "Environmental Science" (full-time, part-time), so the table is keyed by
    its code; "Physical Geography" still names one programme, as its page says. The shared name names
    neither."""
    geo = "# Physical Geography\n\nThe programme takes 60 students a year.\n"
    env = "# Environmental Science\n\nThe programme takes 90 students a year.\n"
    assert _gold(college, {"geo": geo}, "programmes.intake@BSGEO") == [["geo"]]
    assert _gold(college, {"env": env}, "programmes.intake@BSENV") == [[]]


def test_a_heading_that_is_a_value_gives_it_to_the_headings_under_it(college):
    """A programme's handbook lists its modules under "## Year 1", "## Year 2": each module heading
    under "Year 1" says the module is taken in year 1 of the programme the handbook is about."""
    handbook = ("# BSc (Hons) Physical Geography — Programme Handbook 2025/26\n\nProgramme code: BSGEO\n\n## Year 1\n\n"
                "### Data Analysis for Scientists (ENV1020)\n\n20 credits, taught in the autumn.\n\n"
                "## Year 2\n\n### Glacial Geomorphology (GEO2010)\n\n20 credits.\n")
    first, second = _gold(college, {"handbook": handbook}, "programme_modules.year_of_study@BSGEO|ENV1020",
                          "programme_modules.year_of_study@BSGEO|GEO2010")
    assert first == second == ["handbook"]
    # another programme's row is not stated by this handbook
    assert _gold(college, {"handbook": handbook}, "programme_modules.year_of_study@BSENP|ENV1020") == [[]]


def test_a_title_that_only_mentions_a_value_gives_it_to_no_heading_under_it(tmp_path):
    """"Attendance (to 15 March 2025)" over "## Price and Dvorak" is the report's date, not the
    concert's, although concert 2 was on 15 March; a heading that is the date alone does give it."""
    world = make_world(tmp_path / "o.sqlite", """
        CREATE TABLE concerts (concert_id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, concert_date DATE);
        INSERT INTO concerts VALUES (1, 'Sea Interludes', '2025-02-22'), (2, 'Price and Dvorak', '2025-03-15');
    """)
    report = ("# Attendance, season 2024/25 (to 15 March 2025)\n\nFigures from the box office.\n\n"
              "## Price and Dvorak\n\n- Sold: 244\n")
    assert _gold(world, {"report": report}, "concerts.concert_date@2") == [[]]
    listing = "# Concerts\n\n## 15 March 2025\n\n### Price and Dvorak\n\nSold: 244\n"
    assert _gold(world, {"listing": listing}, "concerts.concert_date@2") == [["listing"]]


def _consultancy(path, *, lead: int = 3, town: str = "Clevedon"):
    return make_world(path, f"""
            CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, title TEXT, first_name TEXT, last_name TEXT,
                                office TEXT);
            CREATE TABLE projects (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, status TEXT, site_town TEXT,
                                   lead_id INTEGER REFERENCES staff(staff_id));
            CREATE TABLE site_visits (visit_id INTEGER PRIMARY KEY, project_code TEXT REFERENCES projects(code),
                                      visit_date DATE, inspector_id INTEGER REFERENCES staff(staff_id));
            INSERT INTO staff VALUES (1, 'Ms', 'Helen', 'Hale', 'Bristol'), (2, 'Dr', 'Miriam', 'Cole', 'Bristol'),
                                     (3, 'Mr', 'Tom', 'Ashcroft', 'Exeter'), (4, 'Ms', 'Rachel', 'Hughes', 'Exeter');
            INSERT INTO projects VALUES ('BH-24024', 'Harbourside Hotel Plant Room', 'active', '{town}', {lead}),
                                        ('BH-24013', 'Fremington Quay Housing', 'on hold', 'Bristol', 1);
            INSERT INTO site_visits VALUES (1, 'BH-24024', '2024-12-28', 2);
        """)


@pytest.fixture()
def consultancy(tmp_path):
    return _consultancy(tmp_path / "b.sqlite")


_REPLY = ("From: Helen Hale <helen.hale@example.com>\nTo: Tom Ashcroft <tom.ashcroft@example.com>\n"
          "Subject: RE: Weekly status\n\nThanks Tom.\n\nHelen\n\nOn Fri, 14 Nov 2025 at 09:05, Tom Ashcroft wrote:\n"
          "> Weekly status, BH-24024 Harbourside Hotel Plant Room\n>\n> Status: active\n"
          "> Last site visit: 2024-12-28 (setting-out check, Dr M. Cole)\n>\n> --\n> Tom Ashcroft\n"
          "> Associate | Brenning Hale, Bristol\n")


def test_a_quoted_reply_is_read_as_the_message_it_quotes(consultancy):
    """"> Status: active" under "> Weekly status, BH-24024 ..." is the project's card line, read
    apart from the "... wrote:" line before it (whose sender the quote is not about)."""
    assert _gold(consultancy, {"mail": _REPLY}, "projects.status@BH-24024") == [["mail"]]
    # the other project's status is not written here
    assert _gold(consultancy, {"mail": _REPLY}, "projects.status@BH-24013") == [[]]


def test_a_signature_sits_under_no_heading_of_the_message(tmp_path):
    """"Associate | Brenning Hale, Bristol" in the quoted signature is the sender's office, not the
    town of the project (in Bristol too) the quoted report is headed by; a card line says it."""
    world = _consultancy(tmp_path / "b.sqlite", town="Bristol")
    assert _gold(world, {"mail": _REPLY}, "projects.site_town@BH-24024") == [[]]
    stated = _REPLY.replace("> Status: active\n", "> Status: active\n> Site: Bristol\n")
    assert _gold(world, {"mail": stated}, "projects.site_town@BH-24024") == [["mail"]]


def test_a_line_about_a_visit_names_the_visits_inspector_not_the_projects_lead(tmp_path):
    """"Last site visit: ... Dr M. Cole" under a project's heading says who inspected, not who
    leads the project; a line naming the lead does say it."""
    world = _consultancy(tmp_path / "b.sqlite", lead=2)
    assert _gold(world, {"mail": _REPLY}, "projects.lead_id@BH-24024") == [[]]
    sheet = "# BH-24024 Harbourside Hotel Plant Room\n\nStatus: active\nProject lead: Dr M. Cole\n"
    assert _gold(world, {"sheet": sheet}, "projects.lead_id@BH-24024") == [["sheet"]]
    visited = sheet.replace("Project lead: Dr M. Cole", "Last site visit: 2024-12-28 (setting-out check, Dr M. Cole)")
    assert _gold(world, {"sheet": visited}, "projects.lead_id@BH-24024") == [[]]


def test_a_key_line_of_initials_before_names_expands_them(consultancy):
    """Minutes written with initials ("lead MC") and a key at the end ("Key: HH Helen Hale; MC Miriam
    Cole", initials with a lowercase letter too: "AnP Anjali Patel") name the people in full. A key
    whose initials do not begin the name's words explains nothing."""
    from ragdx.kb.link import legend

    assert legend("Key: GB Geraint Brenning; AnP Anjali Patel; MC Miriam Cole") == {
        "GB": "Geraint Brenning", "AnP": "Anjali Patel", "MC": "Miriam Cole"}
    assert legend("Key: XY Miriam Cole; see also page 2") == {}
    minutes = ("# Project review\n\n1. **BH-24013** (Fremington Quay Housing): lead HH; status on hold.\n\n"
               "Key: HH Helen Hale; TA Tom Ashcroft\n")
    assert _gold(consultancy, {"minutes": minutes}, "projects.lead_id@BH-24013") == [["minutes"]]
    # initials nobody explains name nobody
    assert _gold(consultancy, {"minutes": minutes.partition("Key:")[0]}, "projects.lead_id@BH-24013") == [[]]


def test_a_card_describes_one_numbered_row_by_its_other_values(consultancy):
    """A visit report's card ("Project ... BH-24024 ...", "Date of visit ...", "Purpose ...") tells
    visit 1 apart without its number; the same lines about another project's visit do not."""
    report = ("SITE VISIT REPORT\n=================\n\nProject ......... BH-24024 Harbourside Hotel Plant Room\n"
              "Date of visit ... Sat 28 Dec 2024\nVisited by ...... Dr Miriam Cole\n"
              "Purpose ......... Setting-out check\n")
    assert _gold(consultancy, {"report": report}, "site_visits.visit_date@1") == [["report"]]
    other = report.replace("BH-24024 Harbourside Hotel Plant Room", "BH-24013 Fremington Quay Housing") \
        .replace("Dr Miriam Cole", "Ms Helen Hale")
    assert _gold(consultancy, {"report": other}, "site_visits.visit_date@1") == [[]]


def test_a_signature_is_a_card_about_the_person_it_names(consultancy):
    """"-- / Miriam Cole / Principal Engineer | Brenning Hale, Bristol" says where Miriam Cole works;
    it says nothing of Tom Ashcroft's office."""
    mail = ("Thanks, all fine.\n\n--\nMiriam Cole\nPrincipal Engineer | Brenning Hale, Bristol\n"
            "miriam.cole@example.com\n")
    assert _gold(consultancy, {"mail": mail}, "staff.office@2") == [["mail"]]
    assert _gold(consultancy, {"mail": mail}, "staff.office@3") == [[]]


def test_a_courtesy_title_tells_apart_namesakes_whose_initials_are_alike(tmp_path):
    """Dr Anjali Patel and Mr Arun Patel are both "A. Patel": the initial names neither, but "Dr A.
    Patel" names her. A title shared by both namesakes tells nobody apart."""
    world = make_world(tmp_path / "p.sqlite", """
        CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, title TEXT, first_name TEXT, last_name TEXT, office TEXT);
        INSERT INTO staff VALUES (1, 'Dr', 'Anjali', 'Patel', 'Bristol'), (2, 'Mr', 'Arun', 'Patel', 'Cardiff'),
                                 (3, 'Ms', 'Rachel', 'Hughes', 'Exeter'), (4, 'Ms', 'Ruth', 'Hughes', 'Exeter');
    """)
    note = "Site visit by Dr A. Patel (Bristol office).\n"
    assert _gold(world, {"note": note}, "staff.office@1") == [["note"]]
    assert _gold(world, {"note": note.replace("Dr A.", "A.")}, "staff.office@1") == [[]]
    assert _gold(world, {"note": "Report by Ms R. Hughes (Exeter office).\n"}, "staff.office@3") == [[]]
    # the title and the surname alone: "Dr Patel" is one person, "Ms Hughes" two
    assert _gold(world, {"note": "Dr Patel runs the Bristol office.\n"}, "staff.office@1") == [["note"]]
    assert _gold(world, {"note": "Ms Hughes runs the Exeter office.\n"}, "staff.office@3") == [[]]
    # her title is read beside her name, not inside the name that needs it
    assert _gold(world, {"note": "Dr Anjali Patel leads the job.\n"}, "staff.title@1") == [["note"]]


def test_a_short_unit_is_its_columns_unit_written_short(tmp_path):
    """An hours budget of 40 written "40 h" (or "40 hrs") is in the column's unit; "40 days" is not."""
    world = make_world(tmp_path / "h.sqlite", """
        CREATE TABLE people (person_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT);
        CREATE TABLE jobs (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE team (code TEXT REFERENCES jobs(code), person_id INTEGER REFERENCES people(person_id),
                           hours_budget INTEGER, PRIMARY KEY (code, person_id));
        INSERT INTO people VALUES (1, 'Kate', 'Morrow'), (2, 'Miriam', 'Cole');
        INSERT INTO jobs VALUES ('BH-23007', 'Clevedon Pier Kiosk'), ('BH-24002', 'Riverside Footbridge');
        INSERT INTO team VALUES ('BH-23007', 1, 40), ('BH-23007', 2, 150), ('BH-24002', 1, 60);
    """)
    sheet = ("# BH-23007: Clevedon Pier Kiosk\n\n## Team and hours budget\n\n| Who | Budget |\n|---|--:|\n"
             "| Morrow, Kate | 40 h |\n| Cole, Miriam | 150 hrs |\n")
    kate, miriam = _gold(world, {"sheet": sheet}, "team.hours_budget@BH-23007|1", "team.hours_budget@BH-23007|2")
    assert kate == miriam == ["sheet"]
    assert _gold(world, {"sheet": sheet.replace("40 h", "40 days")}, "team.hours_budget@BH-23007|1") == [[]]


def test_a_card_lines_second_clause_says_whose_value_it_is(tmp_path):
    """"Fee: £12,300.00, started 14 March 2023" states the start date (the word before it says so);
    "Fee: £12,300.00, invoiced 14 March 2023" does not."""
    world = make_world(tmp_path / "f.sqlite", """
        CREATE TABLE projects (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, fee NUMERIC, start_date DATE,
                               end_date DATE);
        INSERT INTO projects VALUES ('BH-23007', 'Clevedon Pier Kiosk', 12300, '2023-03-14', '2024-01-14'),
                                    ('BH-23011', 'Kingsmead School', 27950, '2023-03-01', '2024-01-23');
    """)
    card = "# BH-23007 Clevedon Pier Kiosk\n\nStatus: complete\nFee: £12,300.00, started 14 March 2023\n"
    assert _gold(world, {"card": card}, "projects.start_date@BH-23007") == [["card"]]
    assert _gold(world, {"card": card.replace("started", "invoiced")}, "projects.start_date@BH-23007") == [[]]


def test_a_kind_in_the_plural_heads_its_members_in_a_tree(tmp_path):
    """An org chart's group line "Principal Engineers" over Dr Miriam Cole says she is one; the plural
    in a sentence ("Quarry Vale Principal Engineers Ltd employs Miriam Cole") is a name, not her job."""
    world = make_world(tmp_path / "j.sqlite", """
        CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, job_title TEXT);
        INSERT INTO staff VALUES (1, 'Miriam', 'Cole', 'Principal Engineer'),
                                 (2, 'Kate', 'Morrow', 'Principal Engineer'), (3, 'Tom', 'Ashcroft', 'Associate');
    """)
    chart = "# Who is where\n\n- Bristol\n  - Principal Engineers\n    - Dr Miriam Cole\n    - Ms Kate Morrow\n"
    assert _gold(world, {"chart": chart}, "staff.job_title@1", "staff.job_title@2") == [["chart"], ["chart"]]
    assert _gold(world, {"chart": chart}, "staff.job_title@3") == [[]]
    prose = "Quarry Vale Principal Engineers Ltd employs Miriam Cole.\n"
    assert _gold(world, {"prose": prose}, "staff.job_title@1") == [[]]


def test_a_grade_is_written_as_a_code_of_its_initial(tmp_path):
    """"graded G6" is grade 6 ("G" for grade); "G6" says nothing of a level (its initial is L)."""
    world = make_world(tmp_path / "g.sqlite", """
        CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, grade INTEGER,
                            level INTEGER);
        INSERT INTO staff VALUES (1, 'Tom', 'Ashcroft', 6, 6), (2, 'Kate', 'Morrow', 4, 3);
    """)
    bio = "Tom Ashcroft is an Associate, currently graded G6.\n"
    assert _gold(world, {"bio": bio}, "staff.grade@1", "staff.level@1") == [["bio"], []]


def test_a_cards_relation_line_does_not_make_the_card_about_the_related_entity(tmp_path):
    """A project's sheet ("| Client | Cardiff Bay Leisure plc |" then "| Site | Cardiff |") says
    where the project is, not the client's town; a client's own card does say it."""
    world = make_world(tmp_path / "c.sqlite", """
        CREATE TABLE clients (client_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, town TEXT);
        CREATE TABLE projects (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, site_town TEXT,
                               client_id INTEGER REFERENCES clients(client_id));
        INSERT INTO clients VALUES (5, 'Cardiff Bay Leisure plc', 'Cardiff'), (6, 'Exe Estuary Trust', 'Exeter');
        INSERT INTO projects VALUES ('BH-23026', 'Bay Leisure Pool Plant Replacement', 'Cardiff', 5),
                                    ('BH-23019', 'Riverside Footbridge Inspection', 'Topsham', 6);
    """)
    sheet = ("# BH-23026: Bay Leisure Pool Plant Replacement\n\n| | |\n|---|---|\n"
             "| Client | Cardiff Bay Leisure plc |\n| Site | Cardiff |\n")
    assert _gold(world, {"sheet": sheet}, "clients.town@5", "projects.site_town@BH-23026") == [[], ["sheet"]]
    card = "# Accounts\n\n| | |\n|---|---|\n| Client | Cardiff Bay Leisure plc |\n| Town | Cardiff |\n"
    assert _gold(world, {"card": card}, "clients.town@5") == [["card"]]


def test_a_paragraph_is_about_the_entity_its_opening_names_first(tmp_path):
    """"Barry Island Drainage for Vale Council was handed over ... The design was led by Ms Ffion
    Bevan." is about the project: Ms Bevan leads it; she is not the client's account manager. A
    paragraph opening with the client does say so."""
    world = make_world(tmp_path / "a.sqlite", """
        CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT);
        CREATE TABLE clients (client_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                              account_manager_id INTEGER REFERENCES staff(staff_id));
        CREATE TABLE projects (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                               client_id INTEGER REFERENCES clients(client_id),
                               lead_id INTEGER REFERENCES staff(staff_id));
        INSERT INTO staff VALUES (1, 'Ffion', 'Bevan'), (2, 'Owen', 'Pryce');
        INSERT INTO clients VALUES (12, 'Vale Council', 1), (13, 'Mendip Water', 2);
        INSERT INTO projects VALUES ('BH-24018', 'Barry Island Drainage', 12, 1);
    """)
    news = ("# Barry Island Drainage scheme completes\n\n"
            "Barry Island Drainage for Vale Council was handed over on 5 October 2025. "
            "The design was led by Ms Ffion Bevan, with a fee of about £7k.\n")
    assert _gold(world, {"news": news}, "clients.account_manager_id@12") == [[]]
    crm = "Vale Council is a client of ten years' standing. Its account is looked after by Ms Ffion Bevan.\n"
    assert _gold(world, {"crm": crm}, "clients.account_manager_id@12") == [["crm"]]


_LOG = ("# Site visit log, 2025\n\n| Date | Job | Engineer | Purpose |\n|---|---|---|---|\n"
        "| 28.12.2024 | BH-24024 | MC | setting-out check |\n\n"
        "Engineers by initials: MC Miriam Cole; TA Tom Ashcroft.\n")


def test_a_log_of_numbered_rows_names_each_by_its_other_values(consultancy):
    """A visit log row ("28.12.2024 | BH-24024 | MC | setting-out check", MC explained below the
    table by a labelled list of initials) is visit 1: its job, its date and its engineer tell it apart,
    though the row names a person and a project."""
    from ragdx.kb.link import legend

    assert legend(_LOG)["MC"] == "Miriam Cole"
    assert _gold(consultancy, {"log": _LOG}, "site_visits.project_code@1", "site_visits.inspector_id@1") == [
        ["log"], ["log"]]


def test_a_table_headed_by_a_linking_tables_noun_states_that_tables_rows(tmp_path):
    """The visit log's row says Miriam Cole visited BH-24024, not that she leads it; a project list
    with the same columns does say who leads."""
    world = _consultancy(tmp_path / "b.sqlite", lead=2)
    assert _gold(world, {"log": _LOG}, "projects.lead_id@BH-24024") == [[]]
    listing = _LOG.replace("# Site visit log, 2025", "# Projects, 2025").replace("| Engineer |", "| Lead |")
    assert _gold(world, {"listing": listing}, "projects.lead_id@BH-24024") == [["listing"]]


def test_namesakes_are_named_with_the_attribute_that_tells_them_apart(college):
    """The full-time and the part-time "Environmental Science" are each named by the name written with
    their mode ("Environmental Science (part-time)"); the name alone names neither."""
    page = "# BSc (Hons) Environmental Science (part-time)\n\nThe programme takes 12 students a year.\n"
    assert _gold(college, {"page": page}, "programmes.intake@BSENP", "programmes.intake@BSENV") == [["page"], []]
    bare = "# Environmental Science\n\nThe programme takes 12 students a year.\n"
    assert _gold(college, {"page": bare}, "programmes.intake@BSENP") == [[]]


@pytest.fixture()
def outpatients(tmp_path):
    return make_world(tmp_path / "w.sqlite", """
        CREATE TABLE sites (site_code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, town TEXT);
        CREATE TABLE clinicians (clinician_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT,
                                 base_site TEXT REFERENCES sites(site_code));
        CREATE TABLE clinics (clinic_code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, weekday TEXT,
                              site_code TEXT REFERENCES sites(site_code),
                              consultant_id INTEGER REFERENCES clinicians(clinician_id));
        INSERT INTO sites VALUES ('WGH', 'Wendlebury General Hospital', 'Wendlebury'),
                                 ('BCH', 'Burnham Community Hospital', 'Burnham'),
                                 ('NDC', 'Norton Down Clinic', 'Norton Down');
        INSERT INTO clinicians VALUES (1, 'Ada', 'Nwosu', 'BCH'), (2, 'Samir', 'Aziz', 'BCH');
        INSERT INTO clinics VALUES ('DERM-03', 'Eczema Clinic', 'Wednesday', 'BCH', 1),
                                   ('UROL-01', 'Haematuria Clinic', 'Tuesday', 'WGH', 2);
    """)


def test_a_weekday_is_written_short(outpatients):
    """A timetable's "Tues" or "Wed" is the weekday; "Thurs" is another day."""
    assert _gold(outpatients, {"t": "Eczema Clinic: Wed pm at Burnham Community Hospital.\n"},
                 "clinics.weekday@DERM-03") == [["t"]]
    assert _gold(outpatients, {"t": "Haematuria Clinic: Thurs am.\n"}, "clinics.weekday@UROL-01") == [[]]


def test_a_place_is_named_without_its_kind(outpatients):
    """"Wendlebury General" is Wendlebury General Hospital; "Norton Down" (a town too) names no
    clinic's site alone."""
    assert _gold(outpatients, {"t": "The Haematuria Clinic runs at Wendlebury General.\n"},
                 "clinics.site_code@UROL-01") == [["t"]]
    from ragdx.kb.link import FactResolver

    engine, schema = outpatients
    written = FactResolver(engine, schema)._written_names(FactResolver(engine, schema).meta("sites"), "NDC",
                                                          {"site_code": "NDC", "name": "Norton Down Clinic",
                                                           "town": "Norton Down"})
    assert "Norton Down" not in written


def test_a_row_of_a_linking_table_named_first_takes_the_value(outpatients):
    """"The Eczema Clinic runs at Burnham Community Hospital; it is Dr Nwosu's clinic" gives the
    clinic's site, not Dr Nwosu's base; "Mr Aziz is based at Burnham Community Hospital and takes over
    the Haematuria Clinic" states his base first."""
    clinic = "Dr Ada Nwosu: the Eczema Clinic runs every Wednesday at Burnham Community Hospital.\n"
    assert _gold(outpatients, {"t": clinic}, "clinicians.base_site@1") == [[]]
    based = "Mr Samir Aziz is based at Burnham Community Hospital and takes over the Haematuria Clinic.\n"
    assert _gold(outpatients, {"t": based}, "clinicians.base_site@2") == [["t"]]


def test_an_empty_row_of_a_grid_heads_nothing():
    """A timetable grid (days down, sites across, its header's first cell blank) reads "| Tuesday | |"
    as an empty row, not as a group over Wednesday's clinics; a table with a named first column still
    has group rows."""
    from ragdx.kb.structure import blocks

    grid = ("| | Wendlebury General | St Mary's |\n|---|---|---|\n| Monday | Chest Pain Clinic | |\n"
            "| Tuesday | | |\n| Wednesday | | Heart Failure Clinic |\n")
    kinds = [(b.kind, grid[b.start:b.end]) for b in blocks(grid)]
    assert ("branch", "Tuesday") not in kinds
    wednesday = next(b for b in blocks(grid) if grid[b.start:b.end].startswith("| Wednesday"))
    assert "Tuesday" not in [grid[a:b] for a, b in wednesday.context]
    named = "| Name | Chair | Town |\n|---|---|---|\n| Violas | | |\n| Feld, Jonas | Principal | Leeds |\n"
    assert ("branch", "Violas") in [(b.kind, named[b.start:b.end]) for b in blocks(named)]


def test_a_title_line_over_a_fixed_width_table_is_no_header():
    """"CARDIOLOGY" over "  CLINIC   LIST  MEDIAN WKS" heads the rows: the header is the line of
    columns, and the rows are read under the title."""
    from ragdx.kb.structure import blocks

    text = ("WAITING TIMES - JULY 2026\n\nDERMATOLOGY\n  CLINIC      LIST  MEDIAN WKS\n"
            "  DERM-03      351          13\n  UROL-01       73        20.5\n")
    row = next(b for b in blocks(text) if text[b.start:b.end].strip().startswith("DERM-03"))
    assert text[row.header[0]:row.header[1]].strip().startswith("CLINIC")
    assert "DERMATOLOGY" in [text[a:b] for a, b in row.context]


def test_a_range_of_times_states_how_long_it_lasts(tmp_path):
    """"Dr Marsh, 09:30–13:30" states a 240-minute session (and "9am to 12.30pm" 210 minutes); a
    range of another length does not."""
    from ragdx.kb.normalise import normalised_passage

    assert " zmins240 " in normalised_passage("Dr Marsh, 09:30–13:30")
    assert " zmins210 " in normalised_passage("9am to 12.30pm")
    world = make_world(tmp_path / "s.sqlite", """
        CREATE TABLE clinics (clinic_code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, session_minutes INTEGER);
        INSERT INTO clinics VALUES ('CARD-02', 'Rapid Access Chest Pain Clinic', 240),
                                   ('CARD-03', 'Heart Failure Clinic', 180);
    """)
    grid = "Monday: Rapid Access Chest Pain Clinic, Dr Marsh, 09:30–13:30. Heart Failure Clinic, 14:00–18:00.\n"
    assert _gold(world, {"grid": grid}, "clinics.session_minutes@CARD-02", "clinics.session_minutes@CARD-03") == [
        ["grid"], []]


def test_an_empty_cell_of_a_grid_names_nothing(outpatients):
    """In a grid (days down, sites across) the Friday row holds one clinic under Burnham Community;
    the empty cells under the other sites do not make the row about them: it says the clinic runs on
    Fridays."""
    grid = ("| | Wendlebury General Hospital | Burnham Community Hospital |\n|---|---|---|\n"
            "| Wednesday | | Eczema Clinic, Dr Nwosu, 13:30–17:30 |\n")
    assert _gold(outpatients, {"grid": grid}, "clinics.weekday@DERM-03") == [["grid"]]


def test_the_judge_reads_a_specialty_as_its_practitioner():
    """"a consultant cardiologist" answers Cardiology, "an endocrinologist" Diabetes and
    Endocrinology, "a colorectal surgeon" Colorectal Surgery; "a dermatologist" is no cardiology."""
    from ragdx.kb.normalise import states_text

    assert states_text("Cardiology", "Dr Khan is a consultant cardiologist.")
    assert states_text("Diabetes and Endocrinology", "He is an endocrinologist.")
    assert states_text("Colorectal Surgery", "Mr Patel is a colorectal surgeon.")
    assert not states_text("Cardiology", "She is a dermatologist.")


def test_the_judge_reads_rates_titles_codes_plurals_short_places_and_time_ranges():
    """Right answers in the forms new corpora write, each beside a wrong one that must stay wrong."""
    from ragdx.evaluate.judges import JudgeItem, make_judge

    judge = make_judge("contains")

    def ok(value, response: str, query: str) -> bool:
        return bool(judge.judge(JudgeItem(query=query, answer_rows=[[value]], response=response)).correct)

    assert ok(960.0, "£960/day", "How much is the day rate of Tom Ashcroft?")
    assert not ok(960.0, "£960 or £860/day", "How much is the day rate of Tom Ashcroft?")
    assert ok("Ms", "Ms Rachel Hughes", "What is the title of the staff member 'Rachel Hughes'?")
    assert not ok("Mr", "Ms Rachel Hughes", "What is the title of the staff member 'Rachel Hughes'?")
    assert ok(7, "G7", "What is the grade of 'Tom Ashcroft'?")
    assert not ok(7, "G6", "What is the grade of 'Tom Ashcroft'?")
    assert not ok(7, "G7", "What is the day rate of 'Tom Ashcroft'?")
    assert ok("Senior Engineer", "Senior Engineers", "What is the job title of 'Kate Morrow'?")
    assert ok("Wendlebury General Hospital", "Wendlebury General", "Which site is the clinic at?")
    assert not ok("Wendlebury General Hospital", "Burnham Community", "Which site is the clinic at?")
    assert ok(180, "09:30–12:30", "What is the session in minutes of the Eczema Clinic?")
    assert not ok(180, "09:30–13:30", "What is the session in minutes of the Eczema Clinic?")


def test_a_division_is_not_its_surgeons_field():
    """"Surgery", a division, is not answered by "a consultant colorectal surgeon"."""
    from ragdx.kb.normalise import states_text

    assert not states_text("Surgery", "Miss Thorne is a consultant colorectal surgeon.")
