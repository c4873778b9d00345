import Foundation
import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

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

    /// The luminance comes from a table of the transfer function: the text colour is the formula's for every colour
    /// of a grid through the cube (each component in steps of 15, and every grey).
    @Test func picksWhatTheWCAGFormulaPicksAcrossTheColourCube() {
        func linear(_ component: Int) -> Double {
            let c = Double(component) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        func luminance(_ rgb: RGBColor) -> Double {
            0.2126 * linear(rgb.red) + 0.7152 * linear(rgb.green) + 0.0722 * linear(rgb.blue)
        }
        func contrast(_ a: Double, _ b: Double) -> Double { (max(a, b) + 0.05) / (min(a, b) + 0.05) }
        func expected(_ rgb: RGBColor) -> RGBColor {
            let l = luminance(rgb)
            return contrast(l, luminance(.black)) >= contrast(l, luminance(.white)) ? .black : .white
        }
        let steps = Array(stride(from: 0, through: 255, by: 15))
        let grid = steps.flatMap { r in steps.flatMap { g in steps.map { b in RGBColor(red: r, green: g, blue: b) } } }
        let greys = (0...255).map { RGBColor(red: $0, green: $0, blue: $0) }
        let wrong = (grid + greys).filter { $0.readableText != expected($0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(3).map(\.hex))")
        #expect(grid.contains { $0.readableText == .black } && grid.contains { $0.readableText == .white })
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
