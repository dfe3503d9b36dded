import OpenCoreDataTools

// The demo walks through the seed documents' examples with a real Core Data
// stack on an SQLite file in the working directory: albums and photos, a
// unit of measure that refuses to be deleted, departments and employees.

let models = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Examples/Models")
let storeFolder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)

func say(_ text: String = "") { print(text) }

/// A container for the model file `name` with its store in the working directory,
/// removed first when `fresh` so every run starts the same.
func openStack(_ modelFile: String, store: String, fresh: Bool) throws -> NSPersistentContainer {
    let model = try NSManagedObjectModel.load(contentsOf: models.appendingPathComponent(modelFile))
    let url = storeFolder.appendingPathComponent(store)
    if fresh {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
    let container = NSPersistentContainer(name: store, managedObjectModel: model)
    container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
    var failure: Error?
    container.loadPersistentStores { _, error in failure = error }
    if let failure { throw failure }
    return container
}

/// A new object of `entity` with `values`, in `context`.
@discardableResult
func insert(_ entity: String, _ values: [String: Any], into context: NSManagedObjectContext) -> NSManagedObject {
    let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
    for (key, value) in values { object.setValue(value, forKey: key) }
    return object
}

func names(_ objects: [NSManagedObject]) -> String {
    objects.map { $0.value(forKey: "name") as? String ?? "?" }.joined(separator: ", ")
}

func albumsAndPhotos() throws {
    say("1. Albums and photos (an album's photos are deleted with it: Cascade)")
    var stack = try openStack("FrozenTime.xcdatamodeld", store: "FrozenTime.sqlite", fresh: true)
    var context = stack.viewContext
    let trips: [(String, [(String, Int16)])] = [
        ("Summer in Lisbon", [("tram.jpg", 5), ("azulejos.jpg", 4), ("sunset.jpg", 5)]),
        ("Alps", [("summit.jpg", 5), ("hut.jpg", 2)]),
        ("Birthday", [("cake.jpg", 3)]),
    ]
    for (albumName, photos) in trips {
        let album = insert("Album", ["name": albumName, "creationDate": Date()], into: context)
        for (fileName, rating) in photos {
            // Setting the photo's album adds the photo to the album's `photos`: inverse maintenance.
            insert("Photo", ["name": fileName, "rating": rating, "album": album], into: context)
        }
    }
    try context.save()
    say("   saved 3 albums and 6 photos to \(stack.persistentStoreDescriptions[0].url!.lastPathComponent)")

    stack = try openStack("FrozenTime.xcdatamodeld", store: "FrozenTime.sqlite", fresh: false)
    context = stack.viewContext
    say("   reopened the file")
    let albums = NSFetchRequest<NSManagedObject>(entityName: "Album")
    albums.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
    for album in try context.fetch(albums) {
        let photos = (album.value(forKey: "photos") as? NSSet)?.count ?? 0
        say("   album \(album.value(forKey: "name") as! String): \(photos) photo(s)")
    }
    let photos = NSFetchRequest<NSManagedObject>(entityName: "Photo")
    photos.sortDescriptors = [NSSortDescriptor(key: "album.name", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
    say("   all photos sorted by album name, then name: \(names(try context.fetch(photos)))")
    photos.predicate = NSPredicate(format: "rating >= %d AND album.name BEGINSWITH[c] %@", 5, "summer")
    say("   five-star photos from albums starting with 'summer': \(names(try context.fetch(photos)))")
    let template = stack.managedObjectModel.fetchRequestFromTemplate(withName: "PhotosNamed", substitutionVariables: ["PREFIX": "s"])!
    say("   the model's template PhotosNamed with $PREFIX = \"s\" finds \(try context.count(for: template)) photos")

    let alps = try context.fetch(albums).first { $0.value(forKey: "name") as? String == "Alps" }!
    context.delete(alps)
    try context.save()
    photos.predicate = nil
    say("   deleted the album Alps; photos left: \(names(try context.fetch(photos)))")
    say()
}

func unitsThatRefuseToGo() throws {
    say("2. Items and units (a unit can't be deleted while items use it: Deny)")
    let stack = try openStack("GroceryDude.xcdatamodeld", store: "GroceryDude.sqlite", fresh: true)
    let context = stack.viewContext
    let kg = insert("Unit", ["name": "Kg"], into: context)
    let grams = insert("Unit", ["name": "g"], into: context)
    for name in ["Apples", "Flour"] { insert("Item", ["name": name, "unit": kg], into: context) }
    try context.save()
    context.delete(kg)
    do {
        try context.save()
    } catch let error as NSError {
        say("   deleting Kg failed as it should: code \(error.code) (NSValidationRelationshipDeniedDeleteError) — \(error.localizedDescription)")
        context.rollback()
    }
    for item in (kg.value(forKey: "items") as! NSSet).allObjects as! [NSManagedObject] {
        item.setValue(grams, forKey: "unit")
    }
    context.delete(kg)
    try context.save()
    let units = NSFetchRequest<NSManagedObject>(entityName: "Unit")
    say("   after moving its items to g, Kg could be deleted; units left: \(names(try context.fetch(units)))")
    say()
}

func departmentsThatNullify() throws {
    say("3. Departments and employees (deleting a department clears its employees' link: Nullify)")
    let stack = try openStack("Company.xcdatamodel", store: "Company.sqlite", fresh: true)
    let context = stack.viewContext
    let research = insert("Department", ["name": "Research"], into: context)
    let ada = insert("Employee", ["name": "Ada", "department": research], into: context)
    insert("Employee", ["name": "Alan", "department": research, "manager": ada], into: context)
    try context.save()
    say("   Ada manages \(names(((ada.value(forKey: "directReports") as? NSSet)?.allObjects as? [NSManagedObject]) ?? []))")
    context.delete(research)
    try context.save()
    let staff = NSFetchRequest<NSManagedObject>(entityName: "Employee")
    staff.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
    for employee in try context.fetch(staff) {
        let department = (employee.value(forKey: "department") as? NSManagedObject)?.value(forKey: "name") as? String
        say("   \(employee.value(forKey: "name") as! String) stays, department now \(department ?? "none")")
    }
    say()
}

do {
    say("OpenCoreData demo: Core Data's seed examples on SQLite files in \(storeFolder.path)\n")
    try albumsAndPhotos()
    try unitsThatRefuseToGo()
    try departmentsThatNullify()
    say("Open the .sqlite files with any SQLite tool: they use Core Data's own tables (ZALBUM, ZPHOTO, Z_PRIMARYKEY, Z_METADATA).")
} catch {
    say("The demo stopped: \(error)")
    exit(1)
}
