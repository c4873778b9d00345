import HabitsAPI
import Testing

@testable import Dashboard

@Suite struct RGBColorTests {
    /// Expected values from Python's `colorsys.hsv_to_rgb` × 255, rounded half away from zero.
    @Test(arguments: [
        (0.0, 1.0, 1.0, "#ff0000"),
        (1.0 / 3, 1.0, 1.0, "#00ff00"),
        (2.0 / 3, 1.0, 1.0, "#0000ff"),
        (1.0, 1.0, 1.0, "#ff0000"),  // hue 1 wraps to red
        (0.0, 0.0, 0.0, "#000000"),
        (0.0, 0.0, 1.0, "#ffffff"),
        (0.0, 0.0, 0.5, "#808080"),  // 127.5 rounds up
        (0.15, 1.0, 0.9, "#e6cf00"),  // the favourites' yellow: 229.5, 206.55, 0
        (0.85, 0.5, 0.8, "#cc66c2"),  // Mindfulness: 204, 102, 193.8
        (0.25, 1.0, 0.9, "#73e600"),  // Exercise: 114.75, 229.5, 0
        (0.5, 0.5, 0.8, "#66cccc"),  // Eating
        (0.75, 0.9, 0.2, "#1c0533"),  // Sleeping: 28.05, 5.1, 51
        (0.757_079_881_945_316_95, 0.812_939_012_130_027_62, 0.922_679_438_637_941_88, "#942ceb"),  // user0
    ])
    func convertsHSBToHex(hue: Double, saturation: Double, brightness: Double, hex: String) {
        let rgb = RGBColor(Color(hue: hue, saturation: saturation, brightness: brightness))
        #expect(rgb.hex == hex)
    }

    @Test func hexWritesTwoDigitsAComponentAndClampsOutOfRangeOnes() {
        #expect(RGBColor(red: 1, green: 16, blue: 171).hex == "#0110ab")
        #expect(RGBColor(red: -3, green: 300, blue: 255).hex == "#00ffff")
    }

    @Test func writesCSSFunctionalNotation() {
        #expect(RGBColor(Color(hue: 0.15, saturation: 1, brightness: 0.9)).css == "rgb(230, 207, 0)")
    }

    /// Hue wraps around the circle (-0.5 is cyan); saturation and brightness clamp to 0…1.
    @Test(arguments: [(-0.5, 2.0, 1.5, "#00ffff"), (Double.nan, 1.0, 1.0, "#ff0000"), (0.0, -1.0, 0.5, "#808080")])
    func clampsOutOfRangeInput(hue: Double, saturation: Double, brightness: Double, hex: String) {
        #expect(RGBColor(Color(hue: hue, saturation: saturation, brightness: brightness)).hex == hex)
    }

    /// WCAG 2.x: white on black is 21:1, and the text colour is whichever of black/white contrasts more.
    @Test func measuresContrastLikeWCAG() {
        #expect(abs(RGBColor.contrast(.black, .white) - 21) < 1e-9)
        #expect(abs(RGBColor.contrast(.white, .white) - 1) < 1e-9)
        // #767676 is the classic "just passes 4.5:1 on white" grey.
        let grey = RGBColor(red: 0x76, green: 0x76, blue: 0x76)
        #expect(RGBColor.contrast(grey, .white) > 4.5)
        #expect(RGBColor.contrast(grey, .white) < 4.6)
    }

    @Test(arguments: [
        ("#ffff00", "#000000"),  // yellow: black text
        ("#0000ff", "#ffffff"),  // blue: white text
        ("#1c0533", "#ffffff"),  // dark purple (Sleeping)
        ("#e6cf00", "#000000"),  // favourites' yellow
        ("#ff0000", "#000000"),  // pure red: black 5.25 beats white 4.0
        ("#808080", "#000000"),
        ("#595959", "#ffffff"),
    ])
    func picksTheMoreReadableTextColour(background: String, text: String) throws {
        let rgb = try #require(Self.parse(background))
        #expect(rgb.readableText.hex == text)
    }

    @Test func stylesAMissingColourAsNeutralGrey() {
        let none: Color? = nil
        #expect(ColorStyle(none) == ColorStyle(background: "#999999", text: "#000000"))
        #expect(ColorStyle.favorite == ColorStyle(background: "#e6cf00", text: "#000000"))
    }

    private static func parse(_ hex: String) -> RGBColor? {
        guard hex.count == 7, let value = Int(hex.dropFirst(), radix: 16) else { return nil }
        return RGBColor(red: value >> 16, green: (value >> 8) & 0xFF, blue: value & 0xFF)
    }
}
