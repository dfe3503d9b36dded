import Testing
@testable import OpenCoreDataCore

@Suite struct PackageTests {
    @Test func reexportsFoundation() {
        // `Date` comes from Foundation through OpenCoreData's re-export alone.
        #expect(Date(timeIntervalSinceReferenceDate: 0).timeIntervalSince1970 == 978_307_200)
    }
}
