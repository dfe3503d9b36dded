@testable import OpenCoreDataCore

/// One golden-table entry: a format string, its arguments and variables, and
/// what it evaluates to against ``Fixtures/adam``.
struct Golden: @unchecked Sendable {  // immutable test data
    var format: String
    var expected: Bool
    var args: [Any]
    var vars: [String: Any]
}

private func G(_ format: String, _ expected: Bool, _ args: Any..., vars: [String: Any] = [:]) -> Golden {
    Golden(format: format, expected: expected, args: args, vars: vars)
}

/// Sources: PPG-SYN = Apple, Predicate Programming Guide, "Predicate Format String Syntax";
/// PPG-CRE = "Creating Predicates"; PPG-BNF = "BNF Definition of Cocoa Predicates";
/// SEED-002 = shared/seeds/002_01c2349678c58ded.txt; CORPUS = predicateString attributes of
/// fetchRequest elements in shared/corpus/models/*.xml. Other rows exercise the
/// same grammar systematically (operators × value types) against fixed data.
enum GoldenTable {
    static let rows: [Golden] = ppg + seedsAndCorpus + comparisons + nulls + numbers + strings + collections
        + aggregates + arithmetic + functions + arguments + variables + compounds + lexical

    // PPG-SYN, PPG-CRE, PPG-BNF examples, adapted to the fixture's keys.
    static let ppg: [Golden] = [
        // AD:nspredicate (NSPredicate class reference, overview examples).
        G(#"(firstName like "Mark") OR (lastName like "Adderley")"#, false),
        G(#"department.name like "Eng*""#, true),
        G(#"ALL employees.age > 12"#, true),
        G(#"ANY employees.age > 40"#, true),
        G(#"title contains[cd] "AFE""#, true),
        G(#"grade == "7" OR grade == "8""#, true),
        G(#"grade == "8" OR grade == "9""#, false),
        G(#"(firstName like 'Adam') AND (lastName like 'Smith')"#, true),
        G(#"(lastName like[cd] %@) AND (birthday > %@)"#, true, "SMITH", Date(timeIntervalSinceReferenceDate: 0)),
        G(#"%K like %@"#, true, "firstName", "Adam"),
        G(#"%K like '%@'"#, false, "firstName"),
        G(#"firstName like "%@""#, false),
        G(#"lastName like[c] "smith""#, true),
        G(#"firstName BEGINSWITH[cd] $letter"#, true, vars: ["letter": "a"]),
        G(#"SELF.firstName BEGINSWITH $letter"#, false, vars: ["letter": "B"]),
        G(#"birthday BETWEEN {$YESTERDAY, $TOMORROW}"#, true,
          vars: ["YESTERDAY": Fixtures.birthday.addingTimeInterval(-86_400), "TOMORROW": Fixtures.birthday.addingTimeInterval(86_400)]),
        G(#"age BETWEEN {18, 65}"#, true),
        G(#"1 BETWEEN {0, 33}"#, true),
        G(#"ANY employees.firstName like 'Matthew'"#, true),
        G(#"ANY employees.firstName like 'Mat*'"#, true),
        G(#"ALL employees.age > 18"#, true),
        G(#"NONE employees.age < 18"#, true),
        G(#"SOME employees.salary > 5000"#, true),
        G(#"firstName IN {'Ben', 'Melissa', 'Nick'}"#, false),
        G(#"firstName IN {'Ben', 'Adam', 'Nick'}"#, true),
        G(#"SELF.firstName IN %@"#, true, ["Adam", "Eve"]),
        G(#"employees.@count > 2"#, true),
        G(#"employees.@sum.salary < 13000"#, true),
        G(#"scores.@sum < 29"#, false),
        G(#"SUBQUERY(employees, $e, $e.age > 25).@count == 2"#, true),
        G(#"SUBQUERY(employees, $x, $x.firstName == "Jane" && $x.age == 45).@count == 1"#, true),
        G(#"firstName MATCHES '[A-Z][a-z]+'"#, true),
        G(#"department.name == 'Engineering'"#, true),
        G(#"department.manager.name == "Eve""#, true),
        G(#"ANY department.employees.age > 40"#, true),
        G(#"lastName LIKE[c] $LAST_NAME"#, true, vars: ["LAST_NAME": "sm*"]),
        G(#"title LIKE[cd] "cafe*""#, true),
        G(#"email ENDSWITH ".com""#, true),
        G(#"name CONTAINS[c] "smith""#, true),
        G(#"firstName == "Adam" AND NOT (lastName == "Doe")"#, true),
        G(#"TRUEPREDICATE"#, true),
        G(#"FALSEPREDICATE"#, false),
        G(#"scores[FIRST] == 3"#, true),
        G(#"scores[LAST] == 13"#, true),
        G(#"scores[SIZE] == 4"#, true),
        G(#"scores[1] == 5"#, true),
        G(#"attributes["color"] == "red""#, true),
        G(#"employees.@distinctUnionOfObjects.firstName CONTAINS 'Ben'"#, true),
        G(#"employees.@unionOfObjects.age CONTAINS 45"#, true),
    ]

    static let seedsAndCorpus: [Golden] = [
        G(#"latitude > %d"#, true, 37),  // SEED-002
        G(#"latitude > %@"#, true, NSNumber(value: 37)),  // SEED-002
        G(#"latitude > $LATITUDE_VALUE"#, true, vars: ["LATITUDE_VALUE": 37]),  // SEED-002
        G(#"latitude > $LATITUDE_VALUE"#, false, vars: ["LATITUDE_VALUE": 40]),
        G(#"$FETCH_SOURCE.sourceId == sourceId AND $FETCH_SOURCE.id == mangaId AND (history == nil OR history.completed == false)"#,
          true, vars: ["FETCH_SOURCE": Fixtures.source]),  // CORPUS (Aidoku)
        G(#"humanName == $humanName"#, true, vars: ["humanName": "Adam"]),  // CORPUS
        G(#"humanName == $humanName"#, false, vars: ["humanName": "Eve"]),
        G(#"oneToOne.name == $NAME OR string == $NEEDLE"#, true, vars: ["NAME": "x", "NEEDLE": "haystack"]),  // CORPUS
        G(#"oneToOne.name == $NAME OR string == $NEEDLE"#, false, vars: ["NAME": "x", "NEEDLE": "y"]),
        G(#"parent == $parent"#, true, vars: ["parent": Fixtures.department]),  // CORPUS
        G(#"parent == $parent"#, false, vars: ["parent": Fixtures.history]),
        G(#"parent.parentName == $parentName"#, true, vars: ["parentName": "Root"]),  // CORPUS
        G(#"true == true"#, true),  // CORPUS
        G(#"uuid == $UUID"#, true, vars: ["UUID": "6F9619FF-8B86-D011-B42D-00C04FC964FF"]),  // CORPUS
    ]

    static let comparisons: [Golden] = [
        G("age == 34", true), G("age = 34", true), G("age != 34", false), G("age <> 34", false),
        G("age < 35", true), G("age < 34", false), G("age <= 34", true), G("age =< 34", true),
        G("age > 33", true), G("age > 34", false), G("age >= 34", true), G("age => 34", true),
        G("34 == age", true), G("35 > age", true), G("age BETWEEN {34, 40}", true), G("age BETWEEN {35, 40}", false),
        G("age BETWEEN {30, 34}", true), G("salary BETWEEN {4999.5, 5000.5}", true),
        G(#"firstName BETWEEN {"A", "B"}"#, true), G("birthday BETWEEN {CAST(0, 'NSDate'), now()}", true),
        G(#"firstName == "Adam""#, true), G(#"firstName != "adam""#, true), G(#"firstName < "Ben""#, true),
        G(#"firstName > "Aardvark""#, true), G(#"firstName >= "Adam""#, true), G(#"firstName <=[c] "adam""#, true),
        G("birthday == CAST(315360000, 'NSDate')", true), G("birthday > CAST(0, 'NSDate')", true),
        G("birthday < CAST(315360001.5, \"NSDate\")", true), G("birthday != CAST(1, 'NSDate')", true),
        G("creationDate == birthday", true), G("birthday >= creationDate", true),
        G("isManager == YES", true), G("isManager == TRUE", true), G("isManager == 1", true),
        G("isManager == NO", false), G("isManager != FALSE", true), G("isManager == 2", false),
        G("flag == YES", true), G("flag == true", true),
        G("isManager == true AND flag == 1", true),
    ]

    static let nulls: [Golden] = [
        G("middleName == nil", true), G("middleName == NULL", true), G("middleName != nil", false),
        G("middleName > 3", false), G("middleName < 3", false), G("middleName >= nil", false),
        G("nothing == nil", true), G("manager == nil", true), G("manager.name == nil", true),
        G("manager.name != nil", false), G("nil == nil", true), G("firstName == nil", false),
        G("firstName != NIL", true), G("middleName BEGINSWITH 'a'", false), G("middleName CONTAINS 'a'", false),
        G("middleName IN {nil}", false), G("middleName LIKE '*'", false), G("middleName MATCHES '.*'", false),
        G("age IN nil", false), G("middleName BETWEEN {1, 2}", false), G("NOT middleName == nil", false),
        G("ANY manager.employees.age > 1", false), G("ALL manager.employees.age > 1", true),
        G("history != nil AND history.completed == NO", true),
    ]

    static let numbers: [Golden] = [
        G("age == 34.0", true), G("age == 34.5", false), G("age < 34.5", true),
        G("int16 == 7", true), G("int16 == 7.0", true), G("int16 < age", true),
        G("float == 2.5", true), G("float > 2", true), G("decimal == 10.25", true), G("decimal > 10", true),
        G("uint8 < 4", true), G("uint8 == count", true), G("salary == 5000", true), G("salary == 5e3", true),
        G("salary == 5000.000", true), G("latitude == 37.5", true), G("latitude > 3.75e1", false),
        G("latitude == 375e-1", true), G("age == 0x22", true), G("age == 0X22", true), G("age == 0o42", true),
        G("age == 0b100010", true), G("age == -(-34)", true), G("-age == -34", true),
        G("age > -1", true), G("age == '34'", false), G("grade == 7", false), G("grade == '7'", true),
        G("age == .34e2", true), G("0.5 < 1", true),
    ]

    static let strings: [Golden] = [
        G(#"title == "Café Owner""#, true), G(#"title == "Cafe Owner""#, false), G(#"title ==[d] "Cafe Owner""#, true),
        G(#"title ==[c] "café owner""#, true), G(#"title ==[cd] "CAFE OWNER""#, true), G(#"title ==[n] "Café Owner""#, true),
        G(#"title !=[cd] "cafe owner""#, false),
        G(#"street ==[c] "STRASSE 1""#, true), G(#"city BEGINSWITH[d] "Zu""#, true), G(#"city BEGINSWITH "Zu""#, false),
        G(#"city ENDSWITH "rich""#, true), G(#"city CONTAINS[cd] "URI""#, true), G(#"city CONTAINS "uri""#, false),
        G(#"email LIKE "*@example.com""#, true), G(#"email LIKE "adam@?xample.com""#, true), G(#"email LIKE "adam""#, false),
        G(#"email LIKE[c] "ADAM@*""#, true), G(#"email LIKE "*""#, true), G(#"email LIKE "a*m*e*""#, true),
        G(#"code LIKE "A-??""#, true), G(#"code LIKE "A-?""#, false), G(#"code LIKE "A\\-17""#, true),
        G(#"email MATCHES ".*@example\\.com""#, true), G(#"email MATCHES "adam""#, false), G(#"email MATCHES "adam.*""#, true),
        G(#"code MATCHES "[A-Z]-[0-9]+""#, true), G(#"code MATCHES "[A-Z]-[0-9]""#, false), G(#"firstName MATCHES[c] "adam""#, true),
        G(#"firstName MATCHES "a|Adam""#, true), G(#"firstName MATCHES "Ad""#, false),
        G(#"code CONTAINS "-""#, true), G(#"code CONTAINS "17""#, true), G(#"code CONTAINS """#, true),
        G(#"firstName BEGINSWITH "Ad""#, true), G(#"firstName BEGINSWITH "ad""#, false), G(#"firstName BEGINSWITH[c] "ad""#, true),
        G(#"firstName ENDSWITH[c] "AM""#, true), G(#"firstName ENDSWITH "am""#, true), G(#"firstName ENDSWITH "Am""#, false),
        G(#""Sm" IN lastName"#, true), G(#"firstName IN "Adam Smith""#, true), G(#""sm" IN[c] lastName"#, true),
        G(#"lastName CONTAINS[c] "MIT""#, true), G(#"name LIKE "Adam *""#, true), G(#"name BEGINSWITH[cd] "ADAM S""#, true),
    ]

    static let collections: [Golden] = [
        G(#"tags CONTAINS "swift""#, true), G(#"tags CONTAINS "rust""#, false), G("scores CONTAINS 5", true),
        G("scores CONTAINS 5.0", true), G(#"pets CONTAINS "dog""#, true), G(#"nicknames CONTAINS[c] "ad""#, true),
        G(#""swift" IN tags"#, true), G("5 IN scores", true), G("4 IN scores", false), G(#""red" IN attributes"#, true),
        G(#""color" IN attributes"#, false), G(#""cat" IN pets"#, true), G("age IN {33, 34}", true), G("age IN {}", false),
        G("ANY scores > 10", true), G("ALL scores > 2", true), G("ALL scores > 3", false), G("NONE scores > 13", true),
        G("NONE scores > 12", false), G("ALL empty > 100", true), G("ANY empty > 0", false), G("NONE empty == 1", true),
        G(#"ANY employees.tags == "c""#, true), G(#"ANY employees.tags == "q""#, false), G(#"ANY tags BEGINSWITH "sw""#, true),
        G(#"ALL tags MATCHES "[a-z]+""#, true), G(#"ANY pets LIKE "d*""#, true), G(#"ALL friends.age > 40"#, true),
        G(#"ANY children.name == "ben""#, true), G(#"ANY children.age < 18"#, false),
        G(#"ANY department.employees.firstName IN {"Jane", "Zed"}"#, true), G(#"ALL nicknames IN {"Ad", "Smithy", "X"}"#, true),
        G("scores == {3, 5, 8, 13}", true), G("scores == {3, 5, 8}", false), G("{1, 2} CONTAINS 2", true),
        G("employees CONTAINS $e", true, vars: ["e": Fixtures.ben]), G("$e IN employees", false, vars: ["e": Fixtures.eve]),
        G(#"employees[FIRST].name == "Matthew Jones""#, true), G("employees[LAST].age == 19", true), G("employees[SIZE] == 3", true),
        G("scores[2] == 8", true), G("scores[0] + scores[1] == 8", true), G(#"attributes["size"] == "L""#, true),
        G(#"attributes.color == "red""#, true), G(#"attributes.#size == "L""#, true), G("pets[LAST] == 'dog'", true),
        G("friends[FIRST].firstName == 'Jane'", true), G("employees.age CONTAINS 45", true), G("employees.name CONTAINS 'Eve'", false),
        G("3 IN {1, 2} UNION {2, 3}", true), G("2 IN {1, 2} INTERSECT {2, 3}", true), G("1 IN {1, 2} MINUS {1}", false),
        G("({1, 2} UNION {2, 3}).@count == 3", true), G("(scores MINUS {3, 5}).@count == 2", true),
    ]

    static let aggregates: [Golden] = [
        G("employees.@count == 3", true), G("employees.@max.age == 45", true), G("employees.@min.age == 19", true),
        G("employees.@sum.age == 92", true), G("employees.@avg.age > 30", true), G("employees.@avg.salary == 4000", true),
        G("scores.@sum == 29", true), G("scores.@avg == 7.25", true), G("scores.@max == 13", true), G("scores.@min == 3", true),
        G("scores.@count == 4", true), G("tags.@count == 2", true), G("empty.@count == 0", true), G("empty.@sum == 0", true),
        G("empty.@avg == nil", true), G("empty.@max == nil", true), G("pets.@count == 2", true), G("friends.@count == 2", true),
        G("attributes.@count == 2", true), G("children.@count == 1", true), G("department.employees.@count == 2", true),
        G("employees.@max.firstName == 'Matthew'", true), G("employees.@min.name == 'Jane Doe'", true),
        G("friends.@unionOfObjects.firstName CONTAINS 'Eve'", true), G("employees.@distinctUnionOfArrays.tags CONTAINS 'c'", true),
        G("employees.tags.@count == 3", true), G("friends.@distinctUnionOfObjects.age CONTAINS 51", true),
        G("employees.@count > department.employees.@count", true), G("SUBQUERY(employees, $e, $e.salary >= 4000).@count == 2", true),
        G("SUBQUERY(employees, $e, ANY $e.tags == 'c').@count == 1", true),
        G("SUBQUERY(department.employees, $x, SUBQUERY($x.tags, $t, $t == 'a').@count > 0).@count == 1", true),
        G("SUBQUERY(scores, $s, $s > 4).@count == 3", true), G("SUBQUERY(empty, $s, $s > 4).@count == 0", true),
        G("SUBQUERY(employees, $e, $e.age > 100)[SIZE] == 0", true),
        G("SUBQUERY(employees, $e, $e.age < 20)[FIRST].firstName == 'Ben'", true),
    ]

    static let arithmetic: [Golden] = [
        G("age + 1 == 35", true), G("age - 4 == 30", true), G("age * 2 == 68", true), G("age / 4 == 8.5", true),
        G("2 ** 3 == 8", true), G("salary * 12 > 50000", true), G("age == 30 + 2 * 2", true), G("(age - 4) / 10 == 3", true),
        G("2 ** 3 ** 2 == 512", true), G("(2 ** 3) ** 2 == 64", true), G("-2 ** 2 == 4", true), G("10 - 2 - 3 == 5", true),
        G("100 / 10 / 5 == 2", true), G("age + age * 0 == age", true), G("1 + 2 == 3.0", true), G("7 / 2 == 3.5", true),
        G("salary / age > 147", true), G("scores.@sum / scores.@count == 7.25", true), G("-age + 34 == 0", true),
        G("age - -1 == 35", true), G("2 * (3 + 4) == 14", true), G("(1 + 2) * (3 + 4) == 21", true),
        G("age > employees.@avg.age - 10", true), G("float * 2 == 5", true), G("decimal * 4 == 41", true),
        G("int16 + uint8 == 10", true), G("1 / 0 > 1000000", true), G("isManager + 1 == 2", true),
    ]

    static let functions: [Golden] = [
        G("sum({1, 2, 3}) == 6", true), G("sum:({1, 2, 3}) == 6", true), G("count(scores) == 4", true),
        G("average(scores) == 7.25", true), G("max(scores) == 13", true), G("min(scores) == 3", true),
        G("median(scores) == 6.5", true), G("median({1, 9, 3}) == 3", true), G("stddev({2, 4, 4, 4, 5, 5, 7, 9}) == 2", true),
        G("sqrt(16) == 4", true), G("abs(-5) == 5", true), G("abs:(-2.5) == 2.5", true), G("floor(2.7) == 2", true),
        G("ceiling(2.1) == 3", true), G("trunc(-2.7) == -2", true), G("ln(1) == 0", true), G("log(1000) == 3", true),
        G("exp(0) == 1", true), G("modulus:by:(10, 3) == 1", true), G("modulus:by:(age, 5) == 4", true),
        G("add:to:(1, 2) == 3", true), G("from:subtract:(10, 4) == 6", true), G("multiply:by:(3, 4) == 12", true),
        G("divide:by:(10, 4) == 2.5", true), G("raise:toPower:(2, 10) == 1024", true),
        G("uppercase(firstName) == 'ADAM'", true), G("lowercase:(lastName) == 'smith'", true), G("length(firstName) == 4", true),
        G("now() > birthday", true), G("bitwiseAnd:with:(6, 3) == 2", true), G("bitwiseOr:with:(6, 3) == 7", true),
        G("bitwiseXor:with:(6, 3) == 5", true), G("leftshift:by:(1, 4) == 16", true), G("rightshift:by:(16, 2) == 4", true),
        G("onesComplement(0) == -1", true), G("mode({1, 2, 2, 3}) CONTAINS 2", true), G("random() < 1", true),
        G("random:(10) < 10", true), G("max(1, 5, 3) == 5", true), G("sum(employees.salary) == 12000", true),
        G("distinct({1, 1, 2}).@count == 2", true), G("noindex(age) == 34", true), G("average({}) == nil", true),
        G("CAST('315360000', 'NSDate') == birthday", true), G("CAST(age, 'NSString') == '34'", true),
        G("CAST(zip, 'NSNumber') == 8001", true), G("CAST(birthday, 'NSNumber') == 315360000", true),
        G("CAST(315360000, \"NSDate\") == creationDate", true),
        G("FUNCTION(firstName, 'uppercaseString') == 'ADAM'", true), G("FUNCTION(email, 'hasSuffix:', '.com') == YES", true),
        G("FUNCTION(SELF, 'firstName') == 'Adam'", true), G("FUNCTION(age, 'stringValue') == '34'", true),
        G("TERNARY(age > 30, 'old', 'young') == 'old'", true), G("TERNARY(age > 50, 'old', 'young') == 'old'", false),
        G("TERNARY(middleName == nil, 1, 2) == 1", true),
    ]

    static let arguments: [Golden] = [
        G("%K == %@", true, "firstName", "Adam"), G("%K > %d", true, "age", 30), G("age == %i", true, 34),
        G("age == %ld", true, 34), G("age == %lld", true, Int64(34)), G("salary > %f", true, 4999.5),
        G("salary < %lf", true, 5000.5), G("firstName == %s", true, "Adam"), G("age == %u", true, UInt(34)),
        G("birthday == %@", true, Fixtures.birthday), G("firstName LIKE %@", true, "A*"), G("firstName IN %@", true, ["Adam"]),
        G("firstName == '%@'", false), G("%K == nil", true, "middleName"), G("age == %@", true, NSNumber(value: 34)),
        G("age == %@", true, Int16(34)), G("isManager == %@", true, true), G("%K.%K == %@", true, "department", "name", "Engineering"),
        G("middleName == %@", true, NSNull()), G("age == %x", true, 34), G("age IN %@", true, Set([34, 35])),
        G("firstName IN %@", true, NSArray(array: ["Adam"])), G("age BETWEEN %@", true, [30, 34]),
        G("ANY %K > %@", true, "scores", 10), G("SUBQUERY(%K, $e, $e.age > %d).@count == %d", true, "employees", 20, 2),
        G("%K CONTAINS[c] %@", true, "lastName", "MI"), G("salary == %@", true, Decimal(5000)), G("float == %f", true, Float(2.5)),
        G("age > %d AND age < %d", true, 30, 40), G("%K == %@", false, "firstName", "%@"),
        G("name == %@", true, "Adam Smith"), G(#"title == %@"#, true, "Café Owner"),
        G("attributes.@count == %d", true, 2), G("%K[FIRST] == %d", true, "scores", 3),
        G("age == %hd", true, Int16(34)), G("age == %c", false, 34), G("code == %@", true, "A-17" as NSString),
    ]

    static let variables: [Golden] = [
        G("age > $MIN", true, vars: ["MIN": 30]), G("age > $MIN AND age < $MAX", true, vars: ["MIN": 30, "MAX": 40]),
        G("firstName == $name", true, vars: ["name": "Adam"]), G("$x == 5", true, vars: ["x": 5]),
        G("$a + $b == 3", true, vars: ["a": 1, "b": 2]), G("age IN $ages", true, vars: ["ages": [33, 34]]),
        G("$v == nil", true, vars: ["v": NSNull()]), G("$d == birthday", true, vars: ["d": Fixtures.birthday]),
        G("$e.firstName == 'Ben'", true, vars: ["e": Fixtures.ben]), G("$list[FIRST] == 1", true, vars: ["list": [1, 2]]),
        G("SUBQUERY(employees, $e, $e.age > $MIN).@count == 1", true, vars: ["MIN": 40]),
        G("ANY employees.age > $MIN", false, vars: ["MIN": 50]),
    ]

    static let compounds: [Golden] = [
        G("age > 30 AND age < 40", true), G("age > 30 && age < 40", true), G("age > 40 OR age < 35", true),
        G("age > 40 || age < 30", false), G("NOT age == 34", false), G("! age == 34", false), G("NOT (age == 34)", false),
        G("NOT NOT age == 34", true), G("age == 1 OR age == 34 AND firstName == 'Adam'", true),
        G("age == 34 OR age == 1 AND firstName == 'Nobody'", true), G("(age == 34 OR age == 1) AND firstName == 'Nobody'", false),
        G("NOT age == 1 AND age == 34", true), G("NOT (age == 1 AND age == 34)", true), G("NOT (age == 34 OR age == 1)", false),
        G("FALSEPREDICATE AND a_b_c_missing_is_never_read == 1", false),
        G("age == 34 AND (firstName == 'Adam' OR firstName == 'Eve') AND lastName == 'Smith'", true),
        G("((age == 34))", true), G("(((age == 34)) AND ((lastName == 'Smith')))", true),
        G("TRUEPREDICATE AND age == 34", true), G("FALSEPREDICATE OR age == 34", true), G("NOT TRUEPREDICATE", false),
        G("NOT FALSEPREDICATE AND NOT FALSEPREDICATE", true), G("age == 34 AND age == 34 AND age == 34 AND age == 34", true),
        G("age == 1 OR age == 2 OR age == 3 OR age == 34", true), G("(age == 1 OR age == 34) AND (age == 34 OR age == 2)", true),
        G("NOT (age == 1 OR age == 2) AND NOT (age == 3)", true), G("ANY scores == 3 AND ALL scores < 20", true),
        G("NOT ANY scores > 20", true), G("NOT ALL scores > 4", true), G("isManager == YES AND NOT (middleName != nil)", true),
    ]

    static let lexical: [Golden] = [
        G("firstName beginswith 'A' and age > 30 or not isManager == yes", true), G("attributes.Color == nil", true),
        G("firstName == 'Adam' aNd age == 34", true), G("any scores == 13", true), G("all scores > 0", true),
        G("none scores == 0", true), G("firstName like[c] 'ADAM'", true), G("firstName ==[c] 'ADAM'", true),
        G("SELF.age == 34", true), G("self.age == 34", true), G("SELF == SELF", true), G("SELF != nil", true),
        G(#"title == "Caf\u00e9 Owner""#, true), G(#"name == "Adam\x20Smith""#, true), G(#"name == "Adam\040Smith""#, true),
        G(#""it's" == 'it\'s'"#, true), G(#"'say "hi"' == "say \"hi\"""#, true), G(#""a'b'c" == 'a\'b\'c'"#, true),
        G(#""tab\there" CONTAINS "\t""#, true), G(#""back\\slash" CONTAINS "\\""#, true), G(#""line\nbreak" MATCHES "line.break""#, false),
        G("   age\t==\n34   ", true), G("age==34", true), G("age>=34&&age<=34", true), G("(age==34)||(age==1)", true),
        G("!(age==1)", true), G("department.manager.age > age", true), G("employees.firstName CONTAINS 'Jane'", true),
        G("attributes.#size == 'L'", true), G("#age == 34", true), G("nicknames[1] == 'Smithy'", true),
        G("$A == $a", false, vars: ["A": 1, "a": 2]), G("{} == {}", true), G("{1, {2, 3}}[1][0] == 2", true),
        G("'%@' == \"%@\"", true), G("'$x' == \"$x\"", true), G("'%K' CONTAINS 'K'", true), G("email LIKE '*'", true),
    ]
}
