#!/usr/bin/env bash
# Makes the seed folders of the fuzz targets, from the shared corpus of real
# Core Data files and from the project's tests:
#   seeds/model      (a) corpus model files up to 16 KB, and the models of the model tests
#   seeds/store      (b) corpus stores up to 256 KB with their WAL folded in, and stores of the fixed model
#   seeds/predicate  (c) every string literal of the predicate tests
#   seeds/sql        (d) predicates over the fixed model, and the predicate seeds
# Usage: Fuzz/make-seeds.sh   (after building the targets; OCD_CORPUS overrides ../shared/corpus)
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd .. && pwd)
CORPUS=${OCD_CORPUS:-$ROOT/../shared/corpus}
BIN=${BIN:-.build/release}
[ -d "$CORPUS/models" ] || { echo "no corpus at $CORPUS (set OCD_CORPUS)" >&2; exit 1; }
[ -x "$BIN/FuzzStoreOpen" ] || { echo "build the targets first (see README.md)" >&2; exit 1; }
rm -rf seeds
mkdir -p seeds/model seeds/store seeds/predicate seeds/sql

# (a) Models: small corpus files whole; the inline models of the model tests.
find "$CORPUS/models" -name '*.xml' -size -17k -exec cp {} seeds/model/ \;
python3 -W ignore - "$ROOT/Tests/OpenCoreDataTests/Model" seeds/model <<'PY'
import pathlib, re, sys, hashlib
out = pathlib.Path(sys.argv[2])
header = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\n'
for source in pathlib.Path(sys.argv[1]).glob("*.swift"):
    for body in re.findall(r'"((?:<entity|<configuration|<fetchRequest|<composite)[^"\\]*(?:\\.[^"\\]*)*)"', source.read_text()):
        text = header + body.encode().decode("unicode_escape") + "\n</model>"
        (out / ("test-" + hashlib.sha1(text.encode()).hexdigest()[:12] + ".xml")).write_text(text)
PY

# (b) Stores: each corpus store with its -wal folded in (on a copy), vacuumed;
# those up to 256 KB. Then stores of the fixed model, written by the target.
python3 -W ignore - "$CORPUS/stores" seeds/store <<'PY'
import pathlib, shutil, sqlite3, sys, tempfile
out = pathlib.Path(sys.argv[2])
for store in sorted(pathlib.Path(sys.argv[1]).glob("*.sqlite")):
    with tempfile.TemporaryDirectory() as folder:
        copy = pathlib.Path(folder) / store.name
        for suffix in ["", "-wal", "-shm"]:
            if pathlib.Path(str(store) + suffix).exists():
                shutil.copyfile(str(store) + suffix, str(copy) + suffix)
        db = sqlite3.connect(copy)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("PRAGMA journal_mode=DELETE")
        db.execute("VACUUM")
        db.close()
        if copy.stat().st_size <= 256 * 1024:
            shutil.copyfile(copy, out / store.name)
PY
FIXED=$(mktemp -d)
ASAN_OPTIONS=detect_leaks=0 OCD_FUZZ_WRITE_SEEDS="$FIXED" "$BIN/FuzzStoreOpen" >/dev/null 2>&1
python3 -W ignore - "$FIXED" seeds/store <<'PY'
import pathlib, shutil, sqlite3, sys
for store in pathlib.Path(sys.argv[1]).glob("*.sqlite"):
    db = sqlite3.connect(store)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    shutil.copyfile(store, pathlib.Path(sys.argv[2]) / store.name)
PY
rm -rf "$FIXED"

# (c) Predicates: the string literals of the predicate tests (plain and #"raw"#).
python3 -W ignore - "$ROOT/Tests/OpenCoreDataTests/Predicate" seeds/predicate <<'PY'
import pathlib, re, sys, hashlib
out = pathlib.Path(sys.argv[2])
seen = set()
for source in pathlib.Path(sys.argv[1]).glob("*.swift"):
    text = source.read_text()
    literals = re.findall(r'#"(.*?)"#', text) + [s.encode().decode("unicode_escape", "ignore") for s in re.findall(r'(?<![#\\])"((?:[^"\\\n]|\\.)*)"', text)]
    for literal in literals:
        if 3 <= len(literal) <= 300 and "\\(" not in literal and literal not in seen:
            seen.add(literal)
            (out / hashlib.sha1(literal.encode("utf-8", "surrogatepass")).hexdigest()[:16]).write_bytes(literal.encode("utf-8", "surrogatepass"))
PY

# (d) SQL: predicates over the fixed model (Person, Employee, Team, Pet, Tag), then the predicate seeds.
python3 -W ignore - seeds/sql <<'PY'
import pathlib, sys, hashlib
seeds = """name == 'ann'
name ==[c] 'ANN' AND age > 20
nick BEGINSWITH[cd] 'a' OR nick ENDSWITH 'b'
name LIKE 'a*' AND NOT (age BETWEEN {10, 30})
name MATCHES '[ab].*'
age IN {1, 2, 3, 34} OR score < -2.5
active == YES AND born > CAST(86400, "NSDate")
price >= 1.5 AND small != 3 AND ratio <= 2.25
uuid != nil AND link != nil AND photo != nil
team.title CONTAINS 'a' AND team.rank > 7
team == nil OR team.members.@count > 3
ANY pets.legs == 4
ALL pets.legs > 1
NONE tags.label == 'zoë'
SUBQUERY(pets, $p, $p.legs > 2 AND $p.name != nil).@count > 0
pets.@count == 2 AND tags.@count >= 1
pets.@sum.legs > 3 OR pets.@avg.legs < 2 OR pets.@max.legs == 4 OR pets.@min.legs == 0
manager.name == name OR manager.manager.age > age
reports.@count > 0 AND ANY reports.team.title == team.title
salary > 50000
age + 1 > score * 2 - 3
-age < -10 AND age ** 2 > 100 AND age / 2 == 5
modulus:by:(age, 7) == 3
FUNCTION(name, 'uppercaseString') == 'ANN'
FUNCTION(SELF, 'name') == 'bob'
TERNARY(age > 30, 'old', 'young') == 'old'
lowercase(name) == 'ann' AND length(nick) > 2
name IN %@
%K == %@
age > %d AND name != %@
SELF IN %@
tags.label IN {'ann', 'b'}
team.title UNION tags.label != nil
name < nick
born == now()
age == -0.0
name == "a%b" OR name == 'a_b' OR name == "it's"
pets[FIRST].legs == 2
pets[SIZE] > 1
CAST(age, 'NSString') == '3'
""".strip().split("\n")
out = pathlib.Path(sys.argv[1])
for seed in seeds:
    (out / ("sql-" + hashlib.sha1(seed.encode()).hexdigest()[:12])).write_text(seed)
PY
cp seeds/predicate/* seeds/sql/

for folder in seeds/*; do echo "$folder: $(ls "$folder" | wc -l) files"; done
