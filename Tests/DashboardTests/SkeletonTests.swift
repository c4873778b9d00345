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

    /// The render cache counts a skeleton once, when stored: what its layout keeps later must be in that count (the
    /// large abuse flood's People skeletons kept 74 MiB of cards beyond the cache's budget).
    @Test func whatALayoutKeepsIsWithinTheCostItStatedWhenStored() {
        let memo = ChunkMemo<String>(allowance: 3_000)
        let stated = memo.cost
        var made = 0
        for round in 0..<2 {
            for id in 0..<10 {
                _ = memo.chunk("\(id)") {
                    made += 1
                    return Chunk(Array(repeating: UInt8(ascii: "x"), count: 500))
                }
            }
            // Each chunk costs 1 256 bytes: two fit the allowance and are kept, the other eight are made each time.
            #expect(made == (round == 0 ? 10 : 18))
        }
        #expect(memo.cost == stated)
        let cards = (0..<4).map { Chunk(Array(repeating: UInt8($0), count: 700)) }
        let table = ChoiceTable(plain: cards, chosen: cards, positions: [:])
        #expect(table.cost >= 8 * 700, "a table keeps its cards alive, so it counts them")
    }
}
