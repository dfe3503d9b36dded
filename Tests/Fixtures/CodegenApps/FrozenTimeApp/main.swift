import OpenCoreData

// The seeds' album code (seeds 000 and 003), written against the classes the
// plugin generates from FrozenTime.xcdatamodeld: nothing here is declared by hand.

let modelURL = Bundle.module.url(forResource: "FrozenTime", withExtension: "xcdatamodeld")!
let container = NSPersistentContainer(name: "FrozenTime", managedObjectModel: NSManagedObjectModel(contentsOf: modelURL)!)
container.persistentStoreDescriptions.first!.type = NSInMemoryStoreType
container.loadPersistentStores { _, error in
    if let error { fatalError("Unresolved error \(error)") }
}
let context = container.viewContext

let album = Album(context: context)
album.name = "Holidays"
album.creationDate = Date()
for (index, fileName) in ["sea.jpg", "alps.jpg", "market.jpg"].enumerated() {
    let photo = Photo(context: context)
    photo.name = fileName
    photo.creationDate = Date()
    photo.rating = Int16(index + 1)
    album.addToPhotos(photo)
}
try context.save()

let photosArray = album.photos?.allObjects as? [Photo] ?? []
print("photos: \(photosArray.count)")
print("inverse: \(photosArray.allSatisfy { $0.album == album })")

let request: NSFetchRequest<Photo> = Photo.fetchRequest()
request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
let sorted = try context.fetch(request)
print("sorted: \(sorted.compactMap(\.name).joined(separator: ","))")
print("ratings: \(sorted.map(\.rating).map(String.init).joined(separator: ","))")

album.removeFromPhotos(sorted[0])
print("after remove: \(album.photos?.count ?? 0), orphan album: \(sorted[0].album == nil)")
context.delete(sorted[0])

context.delete(album)
try context.save()
print("photos after cascade: \(try context.count(for: Photo.fetchRequest()))")
print("albums after cascade: \(try context.count(for: Album.fetchRequest()))")
