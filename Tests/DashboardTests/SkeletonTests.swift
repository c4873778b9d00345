import Testing

@testable import DashboardWeb

/// A skeleton is its rendering cut at the places' markers, and composing it puts each place's parts back in order.
@Suite struct SkeletonTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func placesCutTheRenderingIntoRunsAndComposingFillsThemInOrder() {
        let page = "<p>" + Skeleton.marker("a") + "</p>" + Skeleton.marker("b") + Skeleton.marker("a") + "!"
        let skeleton = Skeleton(page: bytes(page))
        #expect(skeleton.runs.map { String(decoding: $0.chunk.bytes, as: UTF8.self) } == ["<p>", "</p>", "", "!"])
        #expect(skeleton.runs.map(\.place) == ["a", "b", "a", nil])
        let composed = skeleton.compose { place, page in page.append(literal: place.uppercased()) }
        #expect(String(decoding: composed.body, as: UTF8.self) == "<p>A</p>BA!")
    }

    @Test func aRenderingWithoutPlacesIsOneRun() {
        let skeleton = Skeleton(page: bytes("<!-- a comment --><p>x</p>"))
        #expect(skeleton.runs.count == 1 && skeleton.runs[0].place == nil)
    }

    @Test func theSearchFindsANeedleAtTheEndsAndNotPastThem() {
        let haystack = bytes("abcabd")
        #expect(haystack.firstIndex(of: bytes("abd")) == 3)
        #expect(haystack.firstIndex(of: bytes("abc")) == 0)
        #expect(haystack.firstIndex(of: bytes("abc"), from: 1) == nil)
        #expect(haystack.firstIndex(of: bytes("abdx")) == nil)
        #expect(bytes("ab").firstIndex(of: bytes("abc")) == nil)
    }
}
