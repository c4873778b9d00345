import HabitsAPI
import Testing

@testable import HabitsSimulator

@Suite struct AvatarRendererTests {
    @Test(arguments: [
        ("Abena Mensah", "AM"), ("Zoë Adler", "ZA"), ("Goran Petrović", "GP"), ("Eun-ji Park", "EP"),
        ("Brigid O'Connell", "BO"), ("Cher", "C"), ("Léa  de la Fontaine", "LF"), ("王 伟", "?"), ("", "?"),
        ("active user", "AU"),
    ])
    func initialsAreFirstAndLastWordLettersWithoutAccents(name: String, initials: String) {
        #expect(AvatarRenderer.initials(of: name) == initials)
    }

    @Test func convertsHSBToRGB() {
        #expect(AvatarRenderer.rgb(Color(hue: 0, saturation: 1, brightness: 1)) == .init(red: 255, green: 0, blue: 0))
        #expect(
            AvatarRenderer.rgb(Color(hue: 1.0 / 3, saturation: 1, brightness: 1)) == .init(red: 0, green: 255, blue: 0))
        #expect(
            AvatarRenderer.rgb(Color(hue: 2.0 / 3, saturation: 1, brightness: 0.5))
                == .init(red: 0, green: 0, blue: 128))
        #expect(
            AvatarRenderer.rgb(Color(hue: 0.9, saturation: 0, brightness: 1)) == .init(red: 255, green: 255, blue: 255))
        #expect(AvatarRenderer.rgb(Color(hue: 1, saturation: 1, brightness: 1)) == .init(red: 255, green: 0, blue: 0))
    }

    @Test func drawsAValidPaletteImageInTheUsersColour() throws {
        let user = User(id: "u", name: "Wen Li", color: Color(hue: 0, saturation: 1, brightness: 1))
        let png = AvatarRenderer.png(for: user)
        let chunks = try PNGReader.chunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "PLTE", "IDAT", "IEND"])
        #expect(chunks.allSatisfy { $0.storedCRC == $0.computedCRC })
        #expect(Array(chunks[1].data.prefix(3)) == [255, 0, 0])
        let raw = try PNGReader.inflate(chunks[2].data, expectedSize: 128 * (1 + 128 / 4))
        #expect(raw.count == 128 * (1 + 128 / 4))
        #expect(png.count < 1024, "a deflated avatar is a fraction of its 4.3 KB of pixels")
    }

    @Test func drawsTheInitialsInsideTheDisc() {
        let pixels = AvatarRenderer.draw(initials: "WL")
        #expect(pixels[0] == 0, "corner is background")
        #expect(pixels[64 * 128 + 64] != 0, "centre is on the disc")
        #expect(pixels.contains(2), "some text pixels")
        let textRows = (0..<128).filter { y in (0..<128).contains { pixels[y * 128 + $0] == 2 } }
        #expect(textRows.count == 7 * AvatarRenderer.scale)
    }

    @Test func usersWithoutAColourGetGrey() throws {
        let png = AvatarRenderer.png(for: User(id: "activeUser", name: "Active User"))
        let palette = try #require(try PNGReader.chunks(png).first { $0.type == "PLTE" })
        #expect(Array(palette.data.prefix(3)) == [153, 153, 153])
    }
}
