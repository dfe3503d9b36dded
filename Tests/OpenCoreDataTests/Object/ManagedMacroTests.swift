import Foundation
import Testing
@testable import OpenCoreDataCore

/// A class with `@Managed` properties in the class and in an extension, a user's own `_title` beside
/// `@Managed var title` (the macro declares no storage, so nothing clashes), and Xcode's accessors of an ordered
/// relationship with `@ManagedAccessor`.
final class Playlist: NSManagedObject {
    @Managed var title: String?
    var _title = "the user's own"
}

final class Track: NSManagedObject {
    @Managed var name: String?
}

extension Playlist {
    @Managed("position") var rank: Int16
    @Managed var tracks: NSOrderedSet?

    @ManagedAccessor func insertIntoTracks(_ value: Track, at idx: Int)
    @ManagedAccessor func removeFromTracks(at idx: Int)
    @ManagedAccessor func insertIntoTracks(_ values: [Track], at indexes: NSIndexSet)
    @ManagedAccessor func removeFromTracks(at indexes: NSIndexSet)
    @ManagedAccessor func replaceTracks(at idx: Int, with value: Track)
    @ManagedAccessor func replaceTracks(at indexes: NSIndexSet, with values: [Track])
    @ManagedAccessor func addToTracks(_ value: Track)
    @ManagedAccessor func removeFromTracks(_ value: Track)
    @ManagedAccessor func addToTracks(_ values: NSOrderedSet)
    @ManagedAccessor func removeFromTracks(_ values: NSOrderedSet)
}

@Suite struct ManagedMacroTests {
    private static func context() throws -> NSManagedObjectContext {
        let playlist = NSEntityDescription(name: "Playlist", className: "Playlist")
        let track = NSEntityDescription(name: "Track", className: "Track")
        let tracks = TestStack.relationship("tracks", to: track, toMany: true)
        tracks.isOrdered = true
        let list = TestStack.relationship("playlist", to: playlist)
        TestStack.pair(tracks, list)
        playlist.properties = [TestStack.attribute("title", .stringAttributeType),
                               TestStack.attribute("position", .integer16AttributeType), tracks]
        track.properties = [TestStack.attribute("name", .stringAttributeType), list]
        let model = NSManagedObjectModel()
        model.entities = [playlist, track]
        NSManagedObject.register(Playlist.self)
        NSManagedObject.register(Track.self)
        return try TestStack.context(model, .sqlite)
    }

    private static func names(_ playlist: Playlist) -> [String] {
        (playlist.tracks?.array as? [Track] ?? []).compactMap(\.name)
    }

    @Test func propertiesReadAndWriteTheStoredValues() throws {
        let context = try Self.context()
        try context.performAndWait { () throws in
            let playlist = Playlist(context: context)
            #expect(playlist.rank == 0)
            playlist.title = "mix"
            playlist.rank = 3
            #expect(playlist._title == "the user's own")
            #expect(playlist.value(forKey: "position") as? Int16 == 3)
            try context.save()
            context.refresh(playlist, mergeChanges: false)
            #expect(playlist.title == "mix" && playlist.rank == 3)
        }
    }

    @Test func orderedAccessorsKeepTheOrderAndTheInverse() throws {
        let context = try Self.context()
        try context.performAndWait { () throws in
            let playlist = Playlist(context: context)
            let tracks = (0..<6).map { index in
                let track = Track(context: context)
                track.name = "t\(index)"
                return track
            }
            playlist.addToTracks(tracks[0])
            playlist.insertIntoTracks(tracks[1], at: 0)
            #expect(Self.names(playlist) == ["t1", "t0"])
            let middle = NSIndexSet(indexesIn: NSRange(location: 1, length: 2))
            playlist.insertIntoTracks([tracks[2], tracks[3]], at: middle)
            #expect(Self.names(playlist) == ["t1", "t2", "t3", "t0"])
            playlist.replaceTracks(at: 0, with: tracks[4])
            #expect(Self.names(playlist) == ["t4", "t2", "t3", "t0"])
            #expect(tracks[1].value(forKey: "playlist") == nil)
            playlist.replaceTracks(at: NSIndexSet(index: 3), with: [tracks[5]])
            playlist.removeFromTracks(at: 1)
            #expect(Self.names(playlist) == ["t4", "t3", "t5"])
            playlist.removeFromTracks(at: NSIndexSet(indexesIn: NSRange(location: 0, length: 2)))
            #expect(Self.names(playlist) == ["t5"])
            playlist.addToTracks(NSOrderedSet(array: [tracks[0], tracks[1]]))
            playlist.removeFromTracks(tracks[5])
            playlist.removeFromTracks(NSOrderedSet(array: [tracks[0]]))
            #expect(Self.names(playlist) == ["t1"])
            #expect(tracks[1].value(forKey: "playlist") as? Playlist === playlist)
            try context.save()
            context.refresh(playlist, mergeChanges: false)
            #expect(Self.names(playlist) == ["t1"])
        }
    }
}
