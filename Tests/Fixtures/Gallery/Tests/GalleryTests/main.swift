import XCTest

// The runner SwiftPM generates for a test target on Linux, written out: GalleryTests is an
// executable of this package rather than a test target, which the suite's own test binary would
// link, and Gallery's Album, Photo and Tag would then be what the bare class names of the suite's
// models resolve to. Not part of the code ported from Apple (ApplePortingFixtureTests).
XCTMain([
    testCase([
        ("testFetchWithPredicateAndSortDescriptors", GalleryTests.testFetchWithPredicateAndSortDescriptors),
        ("testGeneratedAccessorsKeepInversesAndCascade", GalleryTests.testGeneratedAccessorsKeepInversesAndCascade),
        ("testHandWrittenClassWithManyToMany", GalleryTests.testHandWrittenClassWithManyToMany),
        ("testValidationErrorsAreNSErrors", GalleryTests.testValidationErrorsAreNSErrors),
        ("testBackgroundContextSaveReachesTheViewContext", GalleryTests.testBackgroundContextSaveReachesTheViewContext),
        ("testChildContextEditsAreDiscardedOrSaved", GalleryTests.testChildContextEditsAreDiscardedOrSaved),
    ]),
])
