"""Issue 21, evidence-linking precision, third round: each rule a reading a person makes, with a
minimal one- or two-document repro that fails on the code before it."""

from __future__ import annotations

import pytest

from tests.support.linking import gold, world


def _world(tmp_path, script: str):
    return world(tmp_path / "w.sqlite", script)


def _gold(world_, docs: dict[str, str], *facts: list[str]) -> list[list[str]]:
    return gold(world_, docs, *facts)


@pytest.fixture()
def ferries(tmp_path):
    return _world(tmp_path, """
        CREATE TABLE ports (port_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, berths INTEGER NOT NULL);
        CREATE TABLE routes (route_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                             from_port_id INTEGER REFERENCES ports(port_id), crossing_minutes INTEGER);
        INSERT INTO ports VALUES (1, 'Ardmore', 1), (2, 'Inverhoe', 3);
        INSERT INTO routes VALUES (1, 'Ardmore - Inverhoe', 1, 50);
    """)


def test_a_duration_is_no_count(ferries):
    """"The crossing takes 1 hr 25 min" says nothing of Ardmore's one berth: a number written with
    a unit of time is a duration; a column of minutes still reads "crossing 50 min"."""
    berths, minutes = _gold(ferries, {
        "timetable": "Sailings leave Ardmore for Inverhoe; the crossing takes 1 hr 25 min.",
        "port": "Ardmore has 1 berth and a linkspan.",
        "route": "# Ardmore - Inverhoe\n\nAll year, approx. crossing 50 min.",
    }, ["ports.berths@1"], ["routes.crossing_minutes@1"])
    assert berths == ["port"]
    assert minutes == ["route"]


@pytest.fixture()
def trade(tmp_path):
    return _world(tmp_path, """
        CREATE TABLE customers (customer_id TEXT PRIMARY KEY, company_name TEXT NOT NULL UNIQUE, city TEXT);
        CREATE TABLE clinics (clinic_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, town TEXT);
        INSERT INTO customers VALUES ('AROUT', 'Around the Horn', 'London'), ('ERNSH', 'Ernst Handel', 'Graz'),
                                     ('FEDSH', 'Federal Shipping', 'Portland');
        INSERT INTO clinics VALUES (1, 'Harbour View', 'Leeds'), (2, 'Old Mill', 'York');
    """)


def test_a_name_of_several_words_inside_a_longer_unknown_name(trade):
    """"Around the Horn Travel Ltd" is a travel agency, not the customer Around the Horn, and a
    document opening with it is about the agency; a possessive, or the entity's own noun after its
    name ("Harbour View Clinic"), is no other name."""
    london, portland, leeds = _gold(trade, {
        "agency": "NOTE: Around the Horn Travel Ltd (London, WA1 1DQ) keeps calling the sales line asking "
                  "for Thomas.",
        "crm": "Around the Horn's office is in London.",
        "carrier": "Federal Shipping's booking line is in Portland.",
        "clinic": "Harbour View Clinic is the practice in Leeds.",
    }, ["customers.city@AROUT"], ["customers.city@FEDSH"], ["clinics.town@1"])
    assert london == ["crm"]
    assert portland == ["carrier"]
    assert leeds == ["clinic"]


def test_a_name_named_to_deny_it_is_not_named(trade):
    """"They are a travel agency, NOT our customer Around the Horn": the sentence is about the
    agency; "Not related to our customer Ernst Handel" does not make a vendor's page the customer's
    (nor does "could not reach" deny anyone)."""
    london, graz = _gold(trade, {
        "note": "Their office is in London. They are a travel agency, not our customer Around the Horn.",
        "deny": "Based in London, not our customer Around the Horn.",
        "call": "We could not reach Around the Horn in London.",
        "vendor": "Graz smoked fish: a candidate supplier. Not related to our customer Ernst Handel, based in "
                  "Graz.",
    }, ["customers.city@AROUT"], ["customers.city@ERNSH"])
    assert london == ["call"]
    assert graz == []


def test_a_heading_naming_a_firm_or_venue_after_a_known_name(trade):
    """A heading "Vendor registration: Ernst Handel & Söhne KG" is another firm's page; a heading
    "Ernst Handel Account Review", capitalised as headings are, is still the customer's."""
    (graz,) = _gold(trade, {
        "vendor": "# Vendor registration: Ernst Handel & Söhne KG\n\nA candidate supplier of smoked fish from "
                  "Graz, Austria.",
        "review": "# Ernst Handel Account Review\n\nThe customer is based in Graz, Austria.",
    }, ["customers.city@ERNSH"])
    assert graz == ["review"]


def test_a_sentence_naming_a_linking_row_states_that_rows_relation(tmp_path):
    """"Jonas Keller at project 1114 (visit #220)" records a site visit, which links a person and a
    project another way: it does not say he leads the project ("Jonas Keller leads project 1114"
    does)."""
    world = _world(tmp_path, """
        CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT);
        CREATE TABLE projects (project_id INTEGER PRIMARY KEY, title TEXT,
                               lead_id INTEGER REFERENCES staff(staff_id));
        CREATE TABLE site_visits (visit_id INTEGER PRIMARY KEY, project_id INTEGER REFERENCES projects(project_id),
                                  staff_id INTEGER REFERENCES staff(staff_id), visited_on DATE);
        INSERT INTO staff VALUES (1, 'Jonas', 'Keller'), (2, 'Anna', 'Lindqvist');
        INSERT INTO projects VALUES (1114, 'Hull dock gate inspection', 1), (1143, 'Leeds culvert survey', 2);
        INSERT INTO site_visits VALUES (220, 1114, 1, '2022-10-31');
    """)
    (lead,) = _gold(world, {
        "digest": "Site digest\n\n- 2022-W44: Jonas Keller at project 1114 (visit #220)",
        "project": "Jonas Keller leads project 1114.",
    }, ["projects.lead_id@1114"])
    assert lead == ["project"]


def test_names_side_by_side_in_a_list_or_a_message_header_say_nothing_of_who_reports_to_whom(tmp_path):
    """"Present: A. Fuller (chair), S. Buchanan, N. Davolio" lists those at a meeting, and a
    message "From: Andrew Fuller / To: Nancy Davolio" its sender and recipient: neither says that
    Davolio reports to Fuller ("Nancy Davolio reports to Andrew Fuller" does)."""
    world = _world(tmp_path, """
        CREATE TABLE employees (employee_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT,
                                reports_to INTEGER REFERENCES employees(employee_id));
        INSERT INTO employees VALUES (2, 'Andrew', 'Fuller', NULL), (1, 'Nancy', 'Davolio', 2),
                                     (5, 'Steven', 'Buchanan', 2);
    """)
    (boss,) = _gold(world, {
        "minutes": "Sales meeting\n\nPresent: A. Fuller (chair), S. Buchanan, N. Davolio. Minutes: S. Buchanan.",
        "mail": "From: Andrew Fuller\nTo: Nancy Davolio\nSubject: targets",
        "bio": "Nancy Davolio reports to Andrew Fuller.",
    }, ["employees.reports_to@1"])
    assert boss == ["bio"]


def test_a_fixed_width_tables_header_underlined_by_a_rule_is_its_header(tmp_path):
    """"Badge  Surname  Forename  DBS" over a line of dashes is the header of the fixed-width table
    below it, not a Markdown setext heading: each row is read with it ("Y" under "DBS")."""
    world = _world(tmp_path, """
        CREATE TABLE volunteers (volunteer_id INTEGER PRIMARY KEY, badge_no TEXT UNIQUE, first_name TEXT,
                                 last_name TEXT, dbs_checked INTEGER NOT NULL CHECK (dbs_checked IN (0, 1)));
        INSERT INTO volunteers VALUES (1, 'BFB-0125', 'Joyce', 'Fernandes', 1), (2, 'BFB-0127', 'Sarah', 'Jones', 0),
                                      (3, 'BFB-0128', 'Gillian', 'Pike', 1);
    """)
    register = ("BADGE REGISTER\n\nBadge     Surname       Forename    DBS  Home site\n"
                "-----------------------------------------------------\n"
                "BFB-0125  Fernandes     Joyce       Y    Kingsmead Hub\n"
                "BFB-0127  Jones         Sarah       N    Marsh End Centre\n"
                "BFB-0128  Pike          Gillian     Y    Felby Baptist Church\n")
    joyce, sarah = _gold(world, {"register": register}, ["volunteers.dbs_checked@1"], ["volunteers.dbs_checked@2"])
    assert joyce == ["register"] and sarah == ["register"]


def test_a_key_naming_only_a_modifier_of_another_column_is_not_that_column(tmp_path):
    """"Home: 722 Moss Bay Blvd., Kirkland 98033" is a home address holding the postal code: the
    key "Home" is no home phone (a column is named by its head word, "phone"); "Home phone: 98033"
    would be."""
    world = _world(tmp_path, """
        CREATE TABLE employees (employee_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT,
                                postal_code TEXT, home_phone TEXT);
        INSERT INTO employees VALUES (3, 'Janet', 'Leverling', '98033', '(206) 555-3412');
    """)
    (janet,) = _gold(world, {
        "sheet": "Personal data\n\nLeverling, J.\n  Home: 722 Moss Bay Blvd., Kirkland 98033, USA\n"
                 "  Home phone: (206) 555-3412\n",
        "other": "Phone list\n\nLeverling, J.\n  Home phone: 98033\n  Born: 1983",
    }, ["employees.postal_code@3"])
    assert janet == ["sheet"]


def test_a_name_asked_by_the_entitys_code_is_stated_beside_the_code(tmp_path):
    """"What is service STR-3 called?": the catalogue row "| STR-3 | Bridge assessment |" states its
    name; a sentence naming the service without its code (in a document not about it) does not say
    which code it has."""
    world = _world(tmp_path, """
        CREATE TABLE services (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, day_rate REAL);
        INSERT INTO services VALUES ('STR-3', 'Bridge assessment', 1190), ('STR-1', 'Structural inspection', 890);
    """)
    (name,) = _gold(world, {
        "catalogue": "# Service catalogue\n\n| Code | Service | Day rate |\n|---|---|---|\n"
                     "| STR-1 | Structural inspection | 890.00 |\n| STR-3 | Bridge assessment | 1,190.00 |\n",
        "brochure": "Kestrel Ashby works across Europe for public clients.\n\nWe also do bridge assessment.",
    }, ["services.name@STR-3"])
    assert name == ["catalogue"]


def test_a_code_written_in_hyphenated_groups_is_the_number_it_is(tmp_path):
    """"ISBN 978-1-1336-9401-4" under a book's heading states the ISBN the database holds as
    9781133694014; a phone number held with its groups is still found."""
    world = _world(tmp_path, """
        CREATE TABLE books (book_id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, isbn TEXT, phone TEXT);
        INSERT INTO books VALUES (96, 'Commons of Wash', '9781133694014', '0161 496 0000');
    """)
    isbn, phone = _gold(world, {
        "catalogue": "### Commons of Wash\n\nHardback · 228 pp · £90.00 · ISBN 978-1-1336-9401-4\n",
        "desk": "### Commons of Wash\n\nOrders: 0161-496-0000.\n",
    }, ["books.isbn@96"], ["books.phone@96"])
    assert isbn == ["catalogue"]
    assert phone == ["desk"]


@pytest.fixture()
def press(tmp_path):
    return _world(tmp_path, """
        CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT);
        CREATE TABLE books (book_id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE,
                            editor_id INTEGER REFERENCES staff(staff_id), pages INTEGER);
        INSERT INTO staff VALUES (1, 'Owen', 'Hughes'), (2, 'Rosa', 'Delgado'), (3, 'Julian', 'Treve');
        INSERT INTO books VALUES (96, 'Commons of Wash', 1, 228), (97, 'The Reed Cutter', 2, 340);
    """)


def test_initials_given_in_brackets_and_a_list_item_about_its_opening_name(press):
    """Minutes listing "Owen Hughes (OH)" among those present then write "Brought by OH": the
    initials are his. A list item opening with a book's title ("- **Commons of Wash** — Adam
    Achterberg. Brought by OH.") speaks of that book in its later sentences too."""
    minutes = ("# Publishing Committee\n\n"
               "**Present:** Julian Treve (JT, chair), Owen Hughes (OH), Rosa Delgado (RD)\n\n## Proposals\n\n"
               "- **Commons of Wash** — Adam Achterberg. Brought by OH. Approved.\n"
               "- **The Reed Cutter** — Marcus Northcott. Brought by RD. Approved, c. 340 pp.\n")
    editor, pages = _gold(press, {"minutes": minutes, "list": "Titles\n\n- The Reed Cutter\n- Sold 340 copies."},
                          ["books.editor_id@96"], ["books.pages@97"])
    assert editor == ["minutes"]
    assert pages == ["minutes"]


def test_a_thing_named_with_its_tables_noun_has_no_persons_name_forms(tmp_path):
    """"Felby Town Hub" is a hub, not a person: a donor row "| Ms Yvonne Carr | Individual | Felby |"
    read with its header ("Town Felby") does not name it, as the reversed name of a person would;
    "Felby Town" still does."""
    world = _world(tmp_path, """
        CREATE TABLE hubs (hub_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, town TEXT);
        INSERT INTO hubs VALUES (6, 'Felby Town Hub', 'Felby'), (1, 'Tidewell Hub', 'Tidewell');
    """)
    (town,) = _gold(world, {
        "register": "| Supporter | Type | Town |\n|---|---|---|\n| Ms Yvonne Carr | Individual | Felby |\n",
        "leaflet": "Felby Town is our hub in Felby, open on Wednesdays.",
    }, ["hubs.town@6"])
    assert town == ["leaflet"]


def test_a_line_in_capitals_naming_an_event_or_a_firm(tmp_path):
    """"EILEAN DUBH HIGHLAND GAMES" names an event, as "Eilean Dubh Highland Games" would: it does
    not say that the port Bagh Mor is on Eilean Dubh; a line naming the island plainly, in capitals
    too, still states it."""
    world = _world(tmp_path, """
        CREATE TABLE ports (port_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, island TEXT);
        INSERT INTO ports VALUES (6, 'Bagh Mor', 'Eilean Dubh'), (3, 'Ardmair', 'Rona');
    """)
    (island,) = _gold(world, {
        "games": "EILEAN DUBH HIGHLAND GAMES\nSaturday 9 August, Bagh Mor field.\nEntry £6.75, children free.",
        "port": "BAGH MOR HARBOUR NOTES\nBagh Mor is the ferry port on EILEAN DUBH.",
    }, ["ports.island@6"])
    assert island == ["port"]


def test_a_yes_no_column_stated_by_its_states_opposite(tmp_path):
    """A fares table's "Season: all year" says a route is not seasonal, and a catalogue's "available"
    that a product is not discontinued."""
    world = _world(tmp_path, """
        CREATE TABLE routes (route_id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, seasonal INTEGER NOT NULL
                             CHECK (seasonal IN (0, 1)));
        CREATE TABLE products (product_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                               discontinued INTEGER NOT NULL CHECK (discontinued IN (0, 1)));
        INSERT INTO routes VALUES (12, 'R12', 0), (13, 'R13', 1);
        INSERT INTO products VALUES (1, 'Chai', 0), (5, 'Chef Anton''s Gumbo Mix', 1);
    """)
    season, chai = _gold(world, {
        "fares": "| Route | Adult (£) | Season |\n|---|---|---|\n| R12 | 5.90 | all year |\n"
                 "| R13 | 7.10 | summer only |\n",
        "catalogue": "| Product | Status |\n|---|---|\n| Chai | available |\n",
    }, ["routes.seasonal@12"], ["products.discontinued@1"])
    assert season == ["fares"]
    assert chai == ["catalogue"]


def test_a_date_in_a_two_column_table_under_the_entitys_heading(tmp_path):
    """A client's page "# Environment Agency North East" with a table of two columns (a card)
    "| Since | 06/30/2008 |" states when it became a client, as "Since: 06/30/2008" does."""
    world = _world(tmp_path, """
        CREATE TABLE clients (client_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, city TEXT,
                              client_since DATE, founded DATE);
        INSERT INTO clients VALUES (32, 'Environment Agency North East', 'Newcastle', '2008-06-30', '1996-04-01');
    """)
    (since,) = _gold(world, {
        "client": "# Environment Agency North East\n\n| Account | C-032 |\n| City | Newcastle |\n"
                  "| Since | 06/30/2008 |\n| Founded | 04/01/1996 |\n",
    }, ["clients.client_since@32"])
    assert since == ["client"]


def test_a_header_of_words_over_one_row_in_the_same_columns_is_a_table(tmp_path):
    """An order of one line, "QTY  PRODUCT  PRICE  DISC" over "10  Tarte au sucre  49.30  0.00",
    is a table: the 0.00 under "Disc." is the line's discount, not the product's units on order."""
    world = _world(tmp_path, """
        CREATE TABLE products (product_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, units_on_order INTEGER);
        INSERT INTO products VALUES (62, 'Tarte au sucre', 0), (2, 'Pavlova', 40);
    """)
    (units,) = _gold(world, {
        "order": "Order 10599\n\nQTY  PRODUCT             PRICE   DISC\n10   Tarte au sucre      49.30   0.00\n",
        "stock": "| Product | On order |\n|---|---|\n| Tarte au sucre | 0 |\n",
    }, ["products.units_on_order@62"])
    assert units == ["stock"]
