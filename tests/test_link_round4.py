"""Issue 21, evidence linking, fourth round: readings a person makes of layouts and names the earlier
rounds did not know (developed on Calderbrook, then Hebrant, Kestrel and Ashby once each was scored
blind or audited). Each rule has a minimal repro that fails on the code before it, and a near miss
that must stay unlinked."""

from __future__ import annotations

import pytest

from ragdx.kb.structure import blocks
from tests.support.linking import gold
from tests.support.linking import world as make_world


@pytest.fixture()
def orchestra(tmp_path):
    return make_world(tmp_path / "o.sqlite", """
            CREATE TABLE sections (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, seats INTEGER);
            CREATE TABLE players (player_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT,
                                  section_code TEXT REFERENCES sections(code), home_town TEXT);
            INSERT INTO sections VALUES ('VLA', 'Violas', 5), ('FL', 'Flutes', 2), ('OB', 'Oboes', 2);
            INSERT INTO players VALUES (1, 'Jonas', 'Feld', 'VLA', 'Leeds'), (2, 'Kate', 'Varley', 'VLA', 'York'),
                                       (3, 'Carys', 'Stansfield', 'FL', 'Hull'), (4, 'Ivor', 'Bentley', 'OB', 'Ripon');
        """)


def _gold(world, docs: dict[str, str], *facts: str) -> list[list[str]]:
    return gold(world, docs, *([f] for f in facts))


def test_a_group_row_inside_a_table_heads_the_rows_below_it(orchestra):
    """An HTML table's row spanning every column ("| Violas (VLA) |") is a heading for the rows
    under it, as a section heading would be; a capitals row ("| STRINGS |") is a level above."""
    table = ("| Name | Chair | Lives in |\n|---|---|---|\n| STRINGS |\n| Violas (VLA) |\n"
             "| Feld, Jonas | Principal | Leeds |\n| Varley, Kate | Tutti | York |\n| WOODWIND |\n"
             "| Flutes (FL) |\n| Stansfield, Carys | Principal | Hull |\n")
    feld, stansfield, bentley = _gold(orchestra, {"directory": table}, "players.section_code@1",
                                      "players.section_code@3", "players.section_code@4")
    assert feld == ["directory"] and stansfield == ["directory"]
    assert bentley == []  # not in the table: no group row makes him a flute
    kinds = [(b.kind, table[b.start:b.end]) for b in blocks(table)]
    assert ("branch", "Violas (VLA)") in kinds and ("branch", "WOODWIND") in kinds
    # the flute's row is read under WOODWIND and Flutes, not under STRINGS or Violas
    row = next(b for b in blocks(table) if table[b.start:b.end].startswith("| Stansfield"))
    assert [table[a:b] for a, b in row.context][:2] == ["WOODWIND", "Flutes (FL)"]


def test_a_line_flush_left_over_indented_lines_heads_them(orchestra):
    """A plain-text seating list: "VIOLAS [VLA]  establishment 5 seats" over indented names."""
    text = ("SECTIONS AND SEATING\n\nVIOLAS [VLA]  establishment 5 seats\n  Principal Viola ....... Jonas Feld\n"
            "  Kate Varley\n\nFLUTES [FL]  establishment 2 seats\n  Carys Stansfield\n")
    feld, varley, stansfield = _gold(orchestra, {"seating": text}, "players.section_code@1",
                                     "players.section_code@2", "players.section_code@3")
    assert feld == varley == stansfield == ["seating"]
    # not an outline: the indented lines are a paragraph's wrapped text, not under its first line
    assert _gold(orchestra, {"note": "Violas were short this week.\n  Kate Varley was ill\n  and so on"},
                 "players.section_code@2") == [[]]


def test_a_code_of_capitals_names_its_row_only_as_written(orchestra):
    """A call sheet's "FL    STANSFIELD C." gives the flute section by its two-letter code; "fl"
    in running text ("a 12 fl oz bottle") is no section."""
    sheet = "CALL SHEET CS24-01\n\nSEC   PLAYER\nVLA   FELD J.\nFL    STANSFIELD C.\nOB    BENTLEY I.\n"
    prose = "Carys Stansfield brought a 12 fl oz bottle; Ivor Bentley ob. late."
    stansfield, bentley = _gold(orchestra, {"cs24-01": sheet, "diary": prose}, "players.section_code@3",
                                "players.section_code@4")
    assert stansfield == ["cs24-01"] and bentley == ["cs24-01"]


def test_a_role_is_stated_only_with_its_words_where_membership_links_the_tables_too(tmp_path):
    """sections.principal_id names a role; every player also has a section. A call sheet's "VLA
    FELD J." says that Feld plays in the violas, not that he leads them; "Principal Viola ...
    Jonas Feld" does. The player's section itself needs no role word."""
    world = make_world(tmp_path / "r.sqlite", """
            CREATE TABLE players (player_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT,
                                  section_code TEXT REFERENCES sections(code));
            CREATE TABLE sections (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                                   principal_id INTEGER REFERENCES players(player_id));
            INSERT INTO sections VALUES ('VLA', 'Violas', 1), ('VC', 'Cellos', 3);
            INSERT INTO players VALUES (1, 'Jonas', 'Feld', 'VLA'), (2, 'Kate', 'Varley', 'VLA'),
                                       (3, 'Sarah', 'Hale', 'VC');
        """)
    docs = {"sheet": "SEC   PLAYER   NOTE\nVLA   FELD J.   -\nVLA   VARLEY K.   -\nVC    HALE S.   -\n",
            "seating": "VIOLAS [VLA]\n  Principal Viola ....... Jonas Feld\n  Kate Varley\n"}
    principal, section = _gold(world, docs, "sections.principal_id@VLA", "players.section_code@1")
    assert principal == ["seating"]
    assert section == ["seating", "sheet"]


def test_a_time_of_day_is_one_token_however_it_is_written():
    """"7.30pm", "19:30" and "19h30" state the same time; "£7.30" stays a price and "14.09.24" a date."""
    from ragdx.kb.normalise import normalised_passage, phrase

    assert phrase("19:30") == phrase("7.30pm") == phrase("7:30 p.m.") == phrase("19h30") == " ztime1930 "
    assert phrase("3pm") == phrase("15:00:00") == " ztime1500 "
    text = normalised_passage("Saturday 14 September, 7.30pm. Tickets £7.30; call sheet 14.09.24; ratio 3:1.")
    assert " ztime1930 " in text and " ztime0730 " not in text and "zdate" in text and " 3 1 " in text


def test_an_indented_fixed_width_table_stays_a_table():
    """Rows indented under a header flush left ("Item  Product  In stock" over "   1  Chai  39")
    are a table's rows, not an outline under its header."""
    text = "Item  Product   In stock  On order\n   1  Chai      39        0\n   2  Chang     17        40\n"
    assert [b.kind for b in blocks(text)] == ["row", "row"]


def test_a_day_and_month_without_a_year_take_the_documents_year():
    """"Saturday 14 September" under "## Autumn 2024" is 14 September 2024; a season's spring date
    ("Sat 5/4" under "Season 2024/25") is in its second year; a date with its year is left alone."""
    from ragdx.kb.link import with_years, year_anchors
    from ragdx.kb.normalise import normalised_passage

    text = "Season 2024/25\n\n## Autumn 2024\n\n**Saturday 14 September, 7.30pm**\n"
    read = normalised_passage(with_years(text, 0, year_anchors(text)))
    assert " zdate20240914 " in read and " ztime1930 " in read
    sheet = "CALL SHEET   Season 2024/25\nConcert   Sat 5/4  3pm\nRehearse  Thu 12/9\n"
    read = normalised_passage(with_years(sheet, 0, year_anchors(sheet)))
    assert " zdate20250405 " in read and " zdate20240912 " in read
    assert with_years("On 5 April 2023 we met.", 0, year_anchors("2024 On 5 April 2023 we met.")) \
        == "On 5 April 2023 we met."
    assert with_years("5 April", 0, []) == "5 April"  # no year anywhere: nothing to take


def test_names_of_people_plural_rows_and_surnames(tmp_path):
    """A hyphenated surname is one surname ("Coleridge-Taylor, Samuel"); a row named in the plural
    is a member's in the singular ("Principal Horn"); a composer is named by surname beside the
    work, unless another composer shares it."""
    from ragdx.kb.normalise import text_variants

    assert ((" coleridge taylor samuel ",), 0.95) in text_variants("Samuel Coleridge-Taylor")
    assert not any(v[0] == (" taylor samuel coleridge ",) for v in text_variants("Samuel Coleridge-Taylor"))
    world = make_world(tmp_path / "m.sqlite", """
            CREATE TABLE sections (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE players (player_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT,
                                  section_code TEXT REFERENCES sections(code));
            CREATE TABLE works (work_id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, composer TEXT);
            INSERT INTO sections VALUES ('HN', 'Horns'), ('DB', 'Double basses');
            INSERT INTO players VALUES (1, 'Tom', 'Hale', 'HN'), (2, 'Daniel', 'Marsh', 'DB');
            INSERT INTO works VALUES (1, 'Enigma Variations', 'Edward Elgar'), (2, 'Pavane', 'Gabriel Fauré'),
                                     (3, 'The Blue Danube', 'Johann Strauss'), (4, 'Don Juan', 'Richard Strauss');
        """)
    docs = {"bio": "# Tom Hale\n\nTom Hale is our Principal Horn.",
            "programme": "- Elgar — Enigma Variations\n- Strauss — Don Juan\n- Fauré — Pavane\n",
            "note": "Hale once played the double bass."}
    horn, elgar, strauss, bass = _gold(world, docs, "players.section_code@1", "works.composer@1",
                                       "works.composer@4", "players.section_code@2")
    assert horn == ["bio"] and elgar == ["programme"]
    assert strauss == []  # two composers called Strauss: the surname names neither
    assert bass == []  # the note names Hale, not Daniel Marsh


def test_a_works_number_does_not_end_a_sentence():
    """"Cello Concerto in E minor, Op. 85" is one sentence: "Op." is an abbreviation, as "No." is."""
    from ragdx.kb.normalise import normalised_passage

    assert " op 85 " in normalised_passage("# Edward Elgar: Cello Concerto in E minor, Op. 85")
    assert " vol 2 " in normalised_passage("See Vol. 2 of the catalogue. It is out of print.")
    assert normalised_passage("It is out of print. See the catalogue.").count("§") == 1


def test_a_value_given_through_a_label_of_two_documents(tmp_path):
    """A rate card gives the fee per band and names no player; the band list puts each player in a
    band: together they state each player's fee, as a reader joins them. A list keyed by the same
    letters that does not say they are bands states nothing."""
    world = make_world(tmp_path / "f.sqlite", """
            CREATE TABLE players (player_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT,
                                  fee_per_call REAL);
            INSERT INTO players VALUES (1, 'Daniel', 'Marsh', 165), (2, 'Kate', 'Varley', 130), (3, 'Tom', 'Hale', 165);
        """)
    card = "# Call rates\n\n| Band | Fee per call |\n|---|--:|\n| C | £165.00 |\n| J | £130.00 |\n"
    bands = "RATE BANDS - CONTRACTED PLAYERS\n\nC:  Marsh, Daniel; Hale, Tom\nJ:  Varley, Kate\n"
    rooms = "ROOMS\n\nC:  Marsh, Daniel\nJ:  Varley, Kate\n"
    marsh, varley = _gold(world, {"rates": card, "bands": bands}, "players.fee_per_call@1",
                          "players.fee_per_call@2")
    assert marsh == varley == ["bands", "rates"]
    assert _gold(world, {"rates": card, "rooms": rooms}, "players.fee_per_call@1") == [[]]


def test_an_addresss_domain_states_no_country():
    """"trade.orders@wexcombepress.ac.uk" says nothing of the United Kingdom; its mailbox keeps its
    words ("anna.kowal@..." still names Anna Kowal), and an address as a value reads the same."""
    from ragdx.kb.normalise import normalised_passage, phrase

    text = normalised_passage("To order: trade.orders@wexcombepress.ac.uk or see https://www.wexcombe.ac.uk/books.")
    assert " uk " not in text and " trade orders " in text
    assert " anna kowal " in normalised_passage("Write to anna.kowal@calderbrook.org.uk today.")
    assert phrase("anna.kowal@calderbrook.org.uk") in normalised_passage("E-mail: anna.kowal@calderbrook.org.uk")


def test_a_value_given_through_a_documents_own_code(tmp_path):
    """A credit register gives the limit per account and names no client; the client's page gives
    its account: together they state the client's credit limit. The page must say that the code
    is the account ("| Account | C-021 |"); the same code under another key states nothing."""
    world = make_world(tmp_path / "c.sqlite", """
            CREATE TABLE clients (client_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, credit_limit REAL);
            INSERT INTO clients VALUES (21, 'Aarhus Vand', 400000), (26, 'Elbufer Immobilien', 150000);
        """)
    register = "CREDIT LIMIT REGISTER\nAccount   Limit (EUR)\nC-021     400,000.00\nC-026     150,000.00\n"
    aarhus = "# Aarhus Vand\n\n| Account | C-021 |\n| Sector | Water |\n| City | Aarhus |\n"
    elbufer = "# Elbufer Immobilien\n\n| Room | C-026 |\n| Sector | Property |\n| City | Hamburg |\n"
    found, not_found = _gold(world, {"register": register, "aarhus": aarhus, "elbufer": elbufer},
                             "clients.credit_limit@21", "clients.credit_limit@26")
    assert found == ["aarhus", "register"] and not_found == []


def test_a_semicolon_separated_export_is_a_table():
    """"staff_no;name;BST" over "HF-0358;Campbell C.;X" under a title line: rows read with the header,
    the title line as their caption."""
    from ragdx.kb.structure import split_cells

    text = ("Training matrix export - MV Tobarsay Lass\nstaff_no;name;BST;PSC\nHF-0358;Campbell C.;X;\n"
            "HF-0403;MacNeil F.;X;X\n")
    rows = [b for b in blocks(text) if b.kind == "row"]
    assert len(rows) == 2 and text[rows[0].header[0]:rows[0].header[1]] == "staff_no;name;BST;PSC"
    assert text[rows[0].context[0][0]:rows[0].context[0][1]].startswith("Training matrix export")
    assert split_cells("HF-0358;Campbell C.;X;") == ["HF-0358", "Campbell C.", "X", ""]
    # a sentence with two semicolons is no table row
    assert [b.kind for b in blocks("We met; we talked; we left.\nThen we went home.")] == ["para"]


def test_a_tables_header_is_no_heading_naming_another_entity(tmp_path):
    """An export titled with the vessel lists its crew; its header's "BST" (a course's code, an
    entity of another table) is a column's name, not a heading between the title and the rows."""
    world = make_world(tmp_path / "v.sqlite", """
            CREATE TABLE vessels (vessel_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE courses (code TEXT PRIMARY KEY, title TEXT NOT NULL UNIQUE);
            CREATE TABLE crew (crew_id INTEGER PRIMARY KEY, staff_no TEXT UNIQUE, first_name TEXT, last_name TEXT,
                               vessel_id INTEGER REFERENCES vessels(vessel_id));
            INSERT INTO vessels VALUES (1, 'MV Tobarsay Lass'), (2, 'MV Eilean Dubh');
            INSERT INTO courses VALUES ('BST', 'Basic Safety Training'), ('PSC', 'Survival Craft');
            INSERT INTO crew VALUES (1, 'HF-0403', 'Finlay', 'MacNeil', 1), (2, 'HF-0507', 'Donald', 'MacKinnon', 2);
        """)
    export = "Training matrix export - MV Tobarsay Lass\nstaff_no;name;BST;PSC\nHF-0403;MacNeil F.;X;X\n"
    macneil, mackinnon = _gold(world, {"matrix": export}, "crew.vessel_id@1", "crew.vessel_id@2")
    assert macneil == ["matrix"] and mackinnon == []


def test_a_title_line_over_a_bracketed_note_heads_the_document(tmp_path):
    """"CHAIN OF COMMAND - MV Lord of the Isles" over "(as at 1 November 2024)" is the document's
    title: every line of the tree below is read under it, and a parent line naming the manager is
    the line above, not a heading that takes the vessel for itself."""
    world = make_world(tmp_path / "t.sqlite", """
            CREATE TABLE vessels (vessel_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE crew (crew_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, rank TEXT,
                               vessel_id INTEGER REFERENCES vessels(vessel_id),
                               reports_to INTEGER REFERENCES crew(crew_id));
            INSERT INTO vessels VALUES (1, 'MV Lord of the Isles'), (2, 'MV Eilean Dubh');
            INSERT INTO crew VALUES (1, 'Neil', 'Robertson', 'Marine Manager', NULL, NULL),
                                    (2, 'Angus', 'Nicolson', 'Master', 1, 1),
                                    (3, 'Hamish', 'Cameron', 'Chief Officer', 1, 2),
                                    (4, 'Ishbel', 'Macaulay', 'Bosun', 2, 3);
        """)
    chart = ("CHAIN OF COMMAND - MV Lord of the Isles\n(as at 1 November 2024)\n\nMarine Manager Neil Robertson\n"
             "+-- Master Angus Nicolson\n    +-- Chief Officer Hamish Cameron\n")
    nicolson, cameron, macaulay = _gold(world, {"chart": chart}, "crew.vessel_id@2", "crew.vessel_id@3",
                                        "crew.vessel_id@4")
    assert nicolson == cameron == ["chart"] and macaulay == []
    kinds = [b.kind for b in blocks(chart)]
    assert kinds[:2] == ["heading", "heading"]
    # a first line over a line that is no bracketed note stays in its paragraph
    assert [b.kind for b in blocks("Dear Anna\nthe rehearsal moved.\n")] == ["para"]


def test_a_row_named_by_its_parents_name_and_its_number(tmp_path):
    """A room coded "HLB.1.07" is "Harrowgate Laboratories 1.07", "Room 1.07, Harrowgate
    Laboratories" or "Harrowgate 1.07" to the people who work there; a weight within a donor is no
    such number, nor is a room of another building with the same number."""
    world = make_world(tmp_path / "r.sqlite", """
            CREATE TABLE buildings (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE rooms (room_code TEXT PRIMARY KEY, building_code TEXT REFERENCES buildings(code),
                                room_number TEXT, capacity INTEGER);
            CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT,
                                office_room TEXT REFERENCES rooms(room_code));
            INSERT INTO buildings VALUES ('HLB', 'Harrowgate Laboratories'), ('FWB', 'Fold Walk Building');
            INSERT INTO rooms VALUES ('HLB.1.07', 'HLB', '1.07', 36), ('FWB.1.07', 'FWB', '1.07', 12),
                                     ('FWB.2.18', 'FWB', '2.18', 2);
            INSERT INTO staff VALUES (1, 'Tom', 'Lund', 'FWB.2.18'), (2, 'Anne', 'Oddie', 'HLB.1.07');
        """)
    docs = {"lund": "# Tom Lund\n\n- Office: Room 2.18, Fold Walk Building\n- Role: Lecturer\n",
            "labs": "Harrowgate 1.07 seats 36 for practicals.",
            "oddie": "Anne Oddie works from Fold Walk Building 1.07 this term."}
    lund, oddie, labs = _gold(world, docs, "staff.office_room@1", "staff.office_room@2", "rooms.capacity@HLB.1.07")
    assert lund == ["lund"] and labs == ["labs"]
    assert oddie == []  # her office is Harrowgate's 1.07, not Fold Walk's
    # the room's building and number are in its name: stated wherever it is named so
    building, number = _gold(world, docs, "rooms.building_code@FWB.2.18", "rooms.room_number@FWB.2.18")
    assert building == number == ["lund"]


def test_a_unit_run_on_to_its_number():
    """"20cr" is 20 credits' "20 cr"; ordinals, amounts in k and codes stay as they are."""
    from ragdx.kb.normalise import normalised_passage

    text = normalised_passage("Credits: 20cr. A 15kg bag on the 21st; 12.5k raised; module ENV2041.")
    assert " 20 cr " in text and " 15 kg " in text and " 21st " in text and " env2041 " in text
