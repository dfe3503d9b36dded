import OpenCoreData

// What the generated code must do beyond the seeds: ordered accessors,
// inheritance, a category entity, NSNumber/NSDecimalNumber, custom classes.

let modelURL = Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld")!
let container = NSPersistentContainer(name: "Shelf", managedObjectModel: NSManagedObjectModel(contentsOf: modelURL)!)
container.persistentStoreDescriptions.first!.type = NSInMemoryStoreType
container.loadPersistentStores { _, error in
    if let error { fatalError("Unresolved error \(error)") }
}
let context = container.viewContext

func titles(_ list: List) -> String {
    (list.items?.array as? [Item] ?? []).compactMap(\.title).joined(separator: ",")
}

let list = List(context: context)
list.name = "Reading"
let books = (1...5).map { number in
    let book = Book(context: context)
    book.title = "B\(number)"
    book.isbn = "isbn-\(number)"
    return book
}
list.addToItems(books[0])
list.insertIntoItems(books[1], at: 0)
list.insertIntoItems([books[2], books[3]], at: NSIndexSet(indexesIn: NSRange(location: 1, length: 2)))
print("ordered: \(titles(list))")
list.replaceItems(at: 0, with: books[4])
list.removeFromItems(at: 1)
list.removeFromItems(books[3])
print("edited: \(titles(list))")
print("inverse: \(books[4].list === list), \(books[1].list == nil)")

books[0].price = NSDecimalNumber(string: "12.5")
books[0].count = 3
books[0].tags = ["a", "b"]
books[0].tint = Tint(red: 0.5)
books[0].mood = "calm"
try context.save()

let request: NSFetchRequest<Item> = Item.fetchRequest()
request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
let items = try context.fetch(request)
print("fetched: \(items.count) \(items.allSatisfy { $0 is Book })")
print("values: \(books[0].price ?? 0) \(books[0].count ?? 0) \(books[0].tags ?? []) \(books[0].tint?.red ?? 0) \(books[0].mood as? String ?? "")")
context.delete(list)
try context.save()
print("after cascade: \(try context.count(for: Item.fetchRequest()))")
