"""Evidence linking on documents people write: the subject given by structure (headings, tables,
cards, key/value lists, pronouns), a row named by a code or by another attribute, namesakes told
apart, numbers read under their column's header. Each case is a one- or two-document corpus over
a small real SQLite database, linked through the same path as ``ragdx kb link``."""

from __future__ import annotations

import sqlite3

import pytest

from ragdx.db import connect, inspect_schema
from ragdx.gen.dataset import QARecord
from ragdx.kb.link import FactResolver, Linker, PassageIndex, link_records
from ragdx.kb.structure import blocks
from ragdx.rag.corpus import Corpus, _html_text


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return _world(tmp_path_factory.mktemp("structure") / "shop.sqlite", """
        CREATE TABLE office (code TEXT PRIMARY KEY, city TEXT NOT NULL UNIQUE, phone TEXT);
        CREATE TABLE customer (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, city TEXT, postcode TEXT,
                               credit INTEGER, active INTEGER);
        CREATE TABLE employee (id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, title TEXT,
                               office TEXT REFERENCES office(code), country TEXT);
        INSERT INTO office VALUES ('K-01', 'Leeds', '0113 555 0101'), ('K-02', 'Bristol', '0117 555 0102'),
                                  ('K-03', 'Hamburg', '040 555 0103');
        INSERT INTO customer VALUES ('ANGRE', 'ANG Resellers', 'Madrid', '28001', 5000, 1),
                                    ('BOLID', 'Bólido Comidas', 'Sevilla', '41101', 7000, 0),
                                    ('CHOPS', 'Chop-suey Chinese', 'Bern', '3012', 9000, 1);
        INSERT INTO employee VALUES (1, 'Steve', 'Patterson', 'Sales Rep', 'K-01', 'UK'),
                                    (2, 'William', 'Patterson', 'Sales Manager', 'K-02', 'UK'),
                                    (3, 'Anna', 'Keller', 'Engineer', 'K-03', 'Germany'),
                                    (4, 'Jonas', 'Brandt', 'Engineer', 'K-01', 'Germany'),
                                    (5, 'Mia', 'Brandt', 'Sales Manager', 'K-02', 'UK');
    """)


def _world(path, ddl: str):
    """A real SQLite database made from ``ddl``, as ``(engine, schema)``."""
    con = sqlite3.connect(path)
    con.executescript(ddl)
    con.commit()
    con.close()
    engine = connect(f"sqlite:///{path}")
    return engine, inspect_schema(engine)


def _link(world, docs: dict[str, str], facts: list[str]) -> QARecord:
    engine, schema = world
    record = QARecord(id="q", group_id="g", sql_template_id="s", text_template_id="t", style="short",
                      schema="x", table="x", params={}, sql="SELECT 1", query="?", answer_columns=["a"],
                      answer_rows=[["x"]], answer_text="x", answer_kind="single", entities=[], facts=facts)
    corpus = Corpus.from_texts(docs)
    return link_records([record], FactResolver(engine, schema), Linker(PassageIndex(corpus)))[0]


def test_subject_from_a_heading(world):
    heading = _link(world, {"a": "# ANG Resellers\n\nContact Alejandra Camino, Gran Vía, 1, Madrid 28001, Spain."},
                    ["customer.city@ANGRE", "customer.postcode@ANGRE"])
    assert heading.kb_supported is True and heading.gold_document_ids == ["a"]
    # the same paragraph under another customer's heading states nothing of ANG Resellers
    other = _link(world, {"a": "# Chop-suey Chinese\n\nContact Alejandra Camino, Gran Vía, 1, Madrid 28001, Spain."},
                  ["customer.city@ANGRE"])
    assert other.kb_supported is False


def test_sections_of_a_review_each_about_their_heading(world):
    doc = ("# Key accounts 2018\n\n## ANG Resellers\n\nBased in Madrid. Good year.\n\n"
           "## Chop-suey Chinese\n\nBased in Bern. Slow year.\n")
    assert _link(world, {"r": doc}, ["customer.city@ANGRE"]).kb_supported is True
    assert _link(world, {"r": doc}, ["customer.city@CHOPS"]).kb_supported is True
    # Sevilla is nowhere; Bern belongs to the second section only
    assert _link(world, {"r": doc}, ["customer.city@BOLID"]).kb_supported is False


def test_card_and_key_value_export(world):
    card = "## Account card: ANGRE\n\n- Company: ANG Resellers\n- City / postcode: 28001 Madrid\n- Credit: 5,000"
    linked = _link(world, {"c": card}, ["customer.city@ANGRE", "customer.postcode@ANGRE", "customer.credit@ANGRE"])
    assert linked.kb_supported is True
    export = "CUSTOMER ID.......: BOLID\nCOMPANY...........: Bólido Comidas\nCITY..............: Sevilla"
    assert _link(world, {"x": export}, ["customer.city@BOLID"]).kb_supported is True


def test_a_card_is_about_its_first_entity_not_the_rep_it_names(world):
    card = "- Company: Chop-suey Chinese\n- City: Bern\n- Account manager: Anna Keller\n- Country: Germany"
    # the card states the customer's facts; Germany is not said of Anna Keller here
    assert _link(world, {"c": card}, ["employee.country@3"]).kb_supported is False


def test_table_rows_and_numbers_under_their_header(world):
    doc = ("# Customers\n\n| Code | Customer | City | Credit |\n|---|---|---|---|\n"
           "| ANGRE | ANG Resellers | Madrid | 5000 |\n| CHOPS | Chop-suey Chinese | Bern | 9000 |\n")
    assert _link(world, {"t": doc}, ["customer.credit@ANGRE"]).kb_supported is True
    assert _link(world, {"t": doc}, ["customer.city@CHOPS"]).kb_supported is True
    # 28001 is ANG's postcode; a column that says "Credit" holding 28001 would not state it
    wrong = "| Customer | Credit |\n|---|---|\n| ANG Resellers | 28001 |\n| Chop-suey Chinese | 3012 |"
    assert _link(world, {"t": wrong}, ["customer.postcode@ANGRE"]).kb_supported is False


def test_html_key_value_table_and_definition_list(world):
    title, text = _html_text("<html><title>Record</title><body><h1>Customer record</h1><table>"
                             "<tr><th>Company</th><td>Bólido Comidas</td></tr><tr><th>City</th><td>Sevilla</td></tr>"
                             "</table></body></html>")
    assert "City: Sevilla" in text and title == "Record"
    assert _link(world, {"h": text}, ["customer.city@BOLID"]).kb_supported is True
    _, dl = _html_text("<h1>Bristol office</h1><dl><dt>Code</dt><dd>K-02</dd><div></div>"
                       "<dt>Telephone</dt><dd>0117 555 0102</dd></dl>")
    assert _link(world, {"d": dl}, ["office.phone@K-02"]).kb_supported is True


def test_a_row_named_by_its_code_or_its_city(world):
    # the employee's office is a code; people name it by its city
    assert _link(world, {"b": "Anna Keller works in our Hamburg office."}, ["employee.office@3"]).kb_supported is True
    assert _link(world, {"b": "Anna Keller works in our Leeds office."}, ["employee.office@3"]).kb_supported is False
    # a customer named by its code in an order log
    log = "| Customer | City |\n|---|---|\n| BOLID | Sevilla |"
    assert _link(world, {"l": log}, ["customer.city@BOLID"]).kb_supported is True


def test_namesakes_need_a_full_or_unambiguous_name(world):
    # two Pattersons: the surname alone names neither, and Steve's bio is no evidence for William
    bio = "# Steve Patterson\n\nSteve Patterson is our Sales Rep in the UK."
    assert _link(world, {"s": bio}, ["employee.title@2"]).kb_supported is False
    assert _link(world, {"s": bio}, ["employee.title@1"]).kb_supported is True
    # Keller is unique among employees: the surname names her, but not after another given name
    assert _link(world, {"k": "Keller is an Engineer."}, ["employee.title@3"]).kb_supported is True
    assert _link(world, {"k": "Dr. Harold Keller is an Engineer."}, ["employee.title@3"]).kb_supported is False


def test_pronoun_refers_to_the_paragraph_before(world):
    doc = "Bólido Comidas signed in 2016.\n\nIt moved to Sevilla last year."
    assert _link(world, {"p": doc}, ["customer.city@BOLID"]).kb_supported is True


def test_flags_are_stated_in_words_not_by_a_bare_digit(world):
    # active = 0: a "0.00" discount or "0" elsewhere in the row says nothing about it
    row = "| Customer | Discount | Active |\n|---|---|---|\n| Bólido Comidas | 0.00 | no |"
    assert _link(world, {"r": row}, ["customer.active@BOLID"]).kb_supported is True
    bare = "| Customer | Discount |\n|---|---|\n| Bólido Comidas | 0 |"
    assert _link(world, {"r": bare}, ["customer.active@BOLID"]).kb_supported is False


def test_blocks_keep_the_heading_chain():
    text = "# A\n\n## B\n\nThe first paragraph.\n\n### C\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n## D\n\n- k: v\n- l: w"
    out = blocks(text)
    kinds = [(b.kind, [text[a:z] for a, z in b.context]) for b in out if b.kind != "heading"]
    assert kinds == [("para", ["A", "B"]), ("row", ["A", "B", "C", "| x | y |"]), ("card", ["A", "D"])]


def test_a_documents_own_legend_and_a_key_after_its_noun(world):
    log = ("Legend: AK = Anna Keller, SP = Steve Patterson\n\n"
           "#   date         who   office\n#1  10 Jul 2023  AK    Hamburg\n#2  11 Jul 2023  SP    Leeds\n")
    assert _link(world, {"l": log}, ["employee.office@3"]).kb_supported is True
    assert _link(world, {"l": log}, ["employee.office@1"]).kb_supported is True
    # without the legend, "AK" names nobody
    bare = "#   date         who   office\n#1  10 Jul 2023  AK    Hamburg\n#2  11 Jul 2023  SP    Leeds\n"
    assert _link(world, {"l": bare}, ["employee.office@3"]).kb_supported is False
    # a surrogate number names its row when written after the table's noun
    assert _link(world, {"e": "Employee 3 moved to the Hamburg office."}, ["employee.office@3"]).kb_supported is True
    assert _link(world, {"e": "3 moved to the Hamburg office."}, ["employee.office@3"]).kb_supported is False


def test_a_city_names_an_office_only_where_the_text_speaks_of_an_office(world):
    # "Hamburg" is office K-03's city; a customer page in Hamburg says nothing of the office
    assert _link(world, {"o": "Our Hamburg office can be reached on 040 555 0103."},
                 ["office.phone@K-03"]).kb_supported is True
    assert _link(world, {"c": "Chop-suey Chinese moved to Hamburg; call 040 555 0103."},
                 ["office.phone@K-03"]).kb_supported is False


def test_a_row_relating_two_other_cells_says_nothing_of_their_relation(world):
    # a visit log names the visitor and the office visited: it does not say where the visitor works
    log = ("| Visit | Who | Office visited |\n|---|---|---|\n| 17 | Anna Keller | Leeds |\n"
           "| 18 | Steve Patterson | Bristol |")
    assert _link(world, {"v": log}, ["employee.office@3"]).kb_supported is False
    # a roster's own code column names nothing: the name cell is the row's subject
    roster = "| Emp. no. | Name | Office |\n|---|---|---|\n| EMP-3 | Keller, Anna | Hamburg |"
    assert _link(world, {"r": roster}, ["employee.office@3"]).kb_supported is True
    # a "# date who" line is a fixed-width table's header, not a Markdown heading
    fixed = ("#    date         who            office\n#17  10 Jul 2023  Anna Keller    Hamburg\n"
             "#18  11 Jul 2023  Jonas Brandt   Leeds\n")
    assert [b.kind for b in blocks(fixed)] == ["row", "row"]


def test_ditto_marks_and_a_table_with_one_column_per_entity(world):
    table = ("| Customer | City | Credit |\n|---|---|---|\n| ANG Resellers | Madrid | 5000 |\n"
             "| Bólido Comidas | 〃 | 7000 |\n")
    # the ditto mark states Madrid for Bólido, which is not its city: no support for Sevilla
    assert _link(world, {"d": table}, ["customer.city@BOLID"]).kb_supported is False
    table2 = table.replace("| Madrid | 5000 |", "| Sevilla | 5000 |")
    assert _link(world, {"d": table2}, ["customer.city@BOLID"]).kb_supported is True
    transposed = "| | ANGRE | CHOPS |\n|---|---|---|\n| City | Madrid | Bern |\n| Credit | 5000 | 9000 |"
    assert _link(world, {"t": transposed}, ["customer.city@CHOPS", "customer.credit@CHOPS"]).kb_supported is True
    assert _link(world, {"t": transposed}, ["customer.city@BOLID"]).kb_supported is False
    # one column per entity named by a bare number key
    numbered = "| | 3 | 1 |\n|---|---|---|\n| Office | Hamburg | Leeds |"
    assert _link(world, {"n": numbered}, ["employee.office@3"]).kb_supported is True


def test_an_approximate_statement_is_evidence_but_not_support(tmp_path):
    world = _world(tmp_path / "p.sqlite", """
        CREATE TABLE project (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, started DATE);
        INSERT INTO project VALUES (1, 'Harbour Wall Survey', '2009-06-15'), (2, 'Bridge Deck Review', '2011-03-02');
    """)
    vague = _link(world, {"p": "The Harbour Wall Survey started in June 2009."}, ["project.started@1"])
    # the document is the evidence a retriever should find, but the day cannot be read off it
    assert vague.gold_document_ids == ["p"] and vague.kb_supported is False and vague.kb_basis == "approximate"
    assert vague.evidence_spans and vague.evidence_spans[0].get("approximate") is True
    exact = _link(world, {"p": "The Harbour Wall Survey started on 15 June 2009."}, ["project.started@1"])
    assert exact.kb_supported is True and exact.kb_basis == "linked"


def test_a_value_inside_another_entitys_name_states_nothing(tmp_path):
    world = _world(tmp_path / "v.sqlite", """
        CREATE TABLE office (code TEXT PRIMARY KEY, city TEXT NOT NULL UNIQUE);
        CREATE TABLE client (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, city TEXT,
                             office TEXT REFERENCES office(code));
        INSERT INTO office VALUES ('K-03', 'Hamburg'), ('K-01', 'Leeds');
        INSERT INTO client VALUES (1, 'Elbe Foods', 'Hamburg', 'K-01'), (2, 'Wasserwerke Nord', 'Bremen', 'K-03');
    """)
    # "Hamburg" in "the Hamburg office" names the office: it is no client's city
    assert _link(world, {"h": "Elbe Foods is served from the Hamburg office."},
                 ["client.city@1"]).kb_supported is False
    assert _link(world, {"h": "Elbe Foods is based in Hamburg."}, ["client.city@1"]).kb_supported is True
    # but it states which office serves a client
    assert _link(world, {"h": "Wasserwerke Nord is served from the Hamburg office."},
                 ["client.office@2"]).kb_supported is True


def test_initials_name_a_person_only_when_no_namesake_shares_them(world):
    # "A. Keller" is Anna Keller (the only Keller); "S. Patterson" is Steve, "W. Patterson" William
    assert _link(world, {"m": "- A. Keller stays on as Engineer."}, ["employee.title@3"]).kb_supported is True
    assert _link(world, {"m": "W. Patterson is our Sales Manager."}, ["employee.title@2"]).kb_supported is True
    assert _link(world, {"m": "S. Patterson is our Sales Manager."}, ["employee.title@2"]).kb_supported is False
    # two Brandts, Jonas and Mia: "J. Brandt" is Jonas; "Brandt" alone names neither
    assert _link(world, {"m": "J. Brandt is an Engineer."}, ["employee.title@4"]).kb_supported is True
    assert _link(world, {"m": "Brandt is an Engineer."}, ["employee.title@4"]).kb_supported is False


def test_a_value_in_a_heading_must_be_stated_there_not_inside_another_name(world):
    # the heading names a customer whose name holds "Bern"-like words: the office is not stated
    doc = "# Hamburg harbour customers\n\n- Anna Keller, account lead"
    assert _link(world, {"h": doc}, ["employee.office@3"]).kb_supported is False
    doc2 = "# Hamburg office\n\n- Anna Keller, account lead"
    assert _link(world, {"h": doc2}, ["employee.office@3"]).kb_supported is True


def test_tab_separated_rows_and_a_letter_to_you(world):
    tsv = "Customer\tCity\tCredit\nANG Resellers\tMadrid\t5000\nBólido Comidas\tSevilla\t7000\n"
    assert [b.kind for b in blocks(tsv)] == ["row", "row"]
    assert _link(world, {"t": tsv}, ["customer.city@BOLID"]).kb_supported is True
    letter = "Dear Ms. Anna Keller,\n\nYour new desk is in our Hamburg office from May.\n\nKind regards"
    assert _link(world, {"l": letter}, ["employee.office@3"]).kb_supported is True


def test_an_answer_is_read_under_its_question(world):
    faq = "**Q: Which city is ANG Resellers in?**\n\nA: Madrid, near Gran Vía.\n\n**Q: And Chop-suey?**\n\nA: Bern."
    assert _link(world, {"f": faq}, ["customer.city@ANGRE"]).kb_supported is True
    assert _link(world, {"f": faq}, ["customer.city@BOLID"]).kb_supported is False


def test_a_two_sentence_value_is_linked_sentence_by_sentence(tmp_path):
    world = _world(tmp_path / "s.sqlite", """
        CREATE TABLE service (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, description TEXT);
        INSERT INTO service VALUES ('STR-1', 'Structural inspection',
            'Close-up inspection of bridges and quays. Findings are graded and photographed.'),
            ('GEO-1', 'Ground investigation', 'Boreholes and trial pits. Logged on site.');
    """)
    doc = ("# Structural inspection\n\n## What we do\n\n"
           "Close-up inspection of bridges and quays.\nFindings are graded and photographed.")
    assert _link(world, {"s": doc}, ["service.description@STR-1"]).kb_supported is True
    assert _link(world, {"s": doc.replace("# Structural inspection", "# Ground investigation")},
                 ["service.description@STR-1"]).kb_supported is False


def test_a_numbered_row_is_told_apart_by_its_other_values(tmp_path):
    world = _world(tmp_path / "r.sqlite", """
        CREATE TABLE book (book_id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE);
        CREATE TABLE deal (deal_id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES book(book_id),
                           licensee TEXT, language TEXT, signed_on DATE, advance REAL);
        INSERT INTO book VALUES (1, 'The Oyster Wars'), (2, 'Commons of Wash');
        INSERT INTO deal VALUES (1, 1, 'Einaudi', 'Italian', '2024-06-21', 2000),
                                (2, 2, 'Einaudi', 'Italian', '2024-08-07', 2500),
                                (3, 2, 'Columbia University Press', 'English', '2024-09-17', 1000);
    """)
    report = ("# Rights report\n\n"
              "* Einaudi took Italian rights in *The Oyster Wars*, advance £2,000 (signed 21 Jun 2024).\n"
              "* Columbia University Press took a co-edition of *Commons of Wash* (signed 17 Sep 2024).\n")
    # deal 1 has no name; the report tells it apart by book and licensee, or licensee and date
    assert _link(world, {"r": report}, ["deal.advance@1"]).kb_supported is True
    assert _link(world, {"r": report}, ["deal.book_id@1"]).kb_supported is True
    # deal 2 (Einaudi, Commons of Wash, August) is not in the report
    assert _link(world, {"r": report}, ["deal.advance@2"]).kb_supported is False


def test_an_org_chart_tree_a_code_legend_and_a_name_cut_short(world):
    chart = ("```\nSteve Patterson (Sales Rep)\n├── Anna Keller, Engineer\n└── Jonas Brandt, Engineer\n"
             "    └── Mia Brandt, Sales Manager\n```")
    kinds = [b.kind for b in blocks(chart)]
    assert kinds == ["branch"] * 4
    # the line above is the parent: Mia Brandt's parent is Jonas, not Steve
    mia = blocks(chart)[3]
    assert [chart[a:b] for a, b in mia.context] == ["└── Jonas Brandt, Engineer"]
    from ragdx.kb.link import legend

    assert legend("Fmt: HB hardback, PB paperback, EB ebook only.") == {"HB": "hardback", "PB": "paperback",
                                                                        "EB": "ebook only"}
    # a customer's name cut short in a fixed-width list still names it
    listing = "CUSTOMER           CITY\n-------------------------\nChop-suey Chin~    Bern\nANG Resellers      Madrid\n"
    assert _link(world, {"l": listing}, ["customer.city@CHOPS"]).kb_supported is True


def test_a_name_split_over_two_cells_and_a_name_without_its_prefix(world):
    roster = "| Surname | First name | Office |\n|---|---|---|\n| Keller | Anna | Hamburg |\n| Brandt | Jonas | Leeds |"
    assert _link(world, {"r": roster}, ["employee.office@3"]).kb_supported is True
    from ragdx.kb.normalise import text_variants

    def forms(v):
        return [x[0][0] for x in text_variants(v)]

    assert " isle of rona " in forms("MV Isle of Rona") and " pavlova " in forms("Pavlova, Ltd.")
    assert " formaggi fortini " in forms("Formaggi Fortini s.r.l.")
    # a one-word core is too common to stand alone ("The Co." is not "The")
    assert " my " not in forms("My Co")


def test_a_unique_code_column_names_its_row(tmp_path):
    world = _world(tmp_path / "f.sqlite", """
        CREATE TABLE port (port_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, code TEXT NOT NULL UNIQUE);
        CREATE TABLE vessel (vessel_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                             home_port INTEGER REFERENCES port(port_id));
        INSERT INTO port VALUES (1, 'Kinlochbrae', 'KLB'), (2, 'Ardmore', 'ARM');
        INSERT INTO vessel VALUES (1, 'MV Isle of Rona', 1), (2, 'MV Cleit', 2);
    """)
    fleet = "| Vessel | Base |\n|---|---|\n| Isle of Rona | KLB |\n| Cleit | ARM |"
    assert _link(world, {"f": fleet}, ["vessel.home_port@1"]).kb_supported is True
    assert _link(world, {"f": fleet.replace("| KLB |", "| ARM |", 1)}, ["vessel.home_port@1"]).kb_supported is False
    # "the code of Kinlochbrae" is stated only where the port is named otherwise
    assert _link(world, {"p": "Kinlochbrae (KLB) has three berths."}, ["port.code@1"]).kb_supported is True
    assert _link(world, {"p": "KLB has three berths."}, ["port.code@1"]).kb_supported is False


def test_a_number_in_a_row_that_does_not_name_the_subject_needs_its_column_header(world):
    # a timetable under a customer's heading: "5000" in the "Sailing" column is no credit
    doc = "# ANG Resellers\n\n| Sailing | Time |\n|---|---|\n| 5000 | 08:40 |"
    assert _link(world, {"t": doc}, ["customer.credit@ANGRE"]).kb_supported is False
    doc2 = "# ANG Resellers\n\n| Credit | Since |\n|---|---|\n| 5000 | 2019 |"
    assert _link(world, {"t": doc2}, ["customer.credit@ANGRE"]).kb_supported is True


def test_a_name_without_its_tables_noun_in_a_row_and_yes_no_letters(tmp_path):
    world = _world(tmp_path / "h.sqlite", """
        CREATE TABLE hub (hub_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, town TEXT NOT NULL);
        CREATE TABLE volunteer (volunteer_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT,
                                dbs_checked INTEGER NOT NULL, home_hub INTEGER REFERENCES hub(hub_id));
        INSERT INTO hub VALUES (1, 'Tidewell Hub', 'Tidewell'), (2, 'Felby Depot', 'Felby');
        INSERT INTO volunteer VALUES (1, 'Joyce', 'Fernandes', 1, 1), (2, 'Sarah', 'Jones', 0, 2);
    """)
    table = ("| Surname | Forename | DBS | Home |\n|---|---|---|---|\n| Fernandes | Joyce | Y | Tidewell |\n"
             "| Jones | Sarah | N | Felby Depot |")
    assert _link(world, {"t": table}, ["volunteer.dbs_checked@1"]).kb_supported is True
    assert _link(world, {"t": table}, ["volunteer.dbs_checked@2"]).kb_supported is True
    assert _link(world, {"t": table}, ["volunteer.home_hub@1"]).kb_supported is True
    # in prose "Tidewell" is the town, not the hub; and the hub's town is no name of the hub
    assert _link(world, {"p": "Joyce Fernandes lives in Tidewell."}, ["volunteer.home_hub@1"]).kb_supported is False
    assert _link(world, {"p": "Tidewell is a small town."}, ["hub.town@1"]).kb_supported is False
    assert _link(world, {"p": "Tidewell Hub is in Tidewell."}, ["hub.town@1"]).kb_supported is True
    _, text = _html_text("<table><tr><th>Address</th><td>Old Creamery<br>Station Road<br>Felby</td></tr>"
                         "<tr><th>Phone</th><td>01632 961870</td></tr></table>")
    assert "Old Creamery, Station Road, Felby" in text


def test_a_definition_list_is_read_as_a_card():
    """Issue 21 (second round): "Grade\\n: Director" (a Markdown definition list) is a term and its
    definition, one card, not a paragraph."""
    text = "# Robert Hale\n\nRole\n: Technical Director\n\nGrade\n: Director\n"
    kinds = [(b.kind, text[b.start:b.end]) for b in blocks(text)]
    assert ("card", "Grade\n: Director") in kinds
    assert ("card", "Role\n: Technical Director") in kinds
