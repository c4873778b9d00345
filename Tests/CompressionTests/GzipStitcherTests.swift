import Testing

@testable import Compression

@Suite struct GzipStitcherTests {
    private func card(_ index: Int) -> [UInt8] {
        Array("<li class=\"card\" id=\"p\(index)\"><a href=\"/people/user\(index)\">Person \(index)</a></li>\n".utf8)
    }

    @Test func piecesStitchedInAnyOrderInflateToTheirBytesInThatOrder() throws {
        let runs = [card(1), card(2), Array("héllo".utf8), card(3)]
        let pieces = runs.map { GzipPiece($0) }
        for order in [[0, 1, 2, 3], [3, 2, 1, 0], [1, 1, 0]] {
            var stitcher = GzipStitcher()
            for index in order { stitcher.append(pieces[index]) }
            let stream = stitcher.finish()
            // Gzip.decompress checks the trailer: a wrong CRC-32 or length makes it nil.
            #expect(Gzip.decompress(stream) == order.flatMap { runs[$0] })
        }
    }

    @Test func storedPiecesGoAnywhereAndHoldRunsLongerThanOneBlock() {
        let long = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var stitcher = GzipStitcher()
        stitcher.append(GzipPiece(card(1)))
        stitcher.append(GzipPiece(stored: long))
        stitcher.append(GzipPiece(stored: []))
        stitcher.append(GzipPiece(card(2)))
        #expect(Gzip.decompress(stitcher.finish()) == card(1) + long + card(2))
    }

    @Test func anEmptyStreamIsAValidGzipOfNothing() {
        #expect(Gzip.decompress(GzipStitcher().finish()) == [])
    }

    @Test func aPieceMadeAfterItsPredecessorRefersBackIntoItAndCompressesBetter() {
        let first = card(1)
        let second = card(2)
        let alone = GzipPiece(second)
        let after = GzipPiece(second, after: first)
        #expect(after.deflated.count < alone.deflated.count)
        var stitcher = GzipStitcher()
        stitcher.append(GzipPiece(first))
        stitcher.append(after)
        #expect(Gzip.decompress(stitcher.finish()) == first + second)
    }

    @Test func aPieceMadeAfterOtherBytesInflatesWrongElsewhereWhichIsWhyItIsKeyedByThem() {
        // The dictionary is a promise about what precedes the piece: broken, the bytes differ (or do not inflate).
        // Made after a copy of itself, the piece is almost all one back-reference into those bytes.
        let after = GzipPiece(card(2), after: card(2))
        var stitcher = GzipStitcher()
        stitcher.append(GzipPiece(card(7)))
        stitcher.append(after)
        #expect(Gzip.decompress(stitcher.finish()) != card(7) + card(2))
    }
}
