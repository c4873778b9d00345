import Foundation
import HabitsAPI

/// An 8-bit sRGB colour, converted from the API's HSB and measured for contrast (WCAG 2.x).
public struct RGBColor: Equatable, Sendable {
    /// Red, 0…255.
    public var red: Int
    /// Green, 0…255.
    public var green: Int
    /// Blue, 0…255.
    public var blue: Int

    /// Creates a colour from 8-bit components.
    public init(red: Int, green: Int, blue: Int) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Converts HSB (as `UIColor(hue:saturation:brightness:alpha:)` reads it) to RGB, rounding each channel to the
    /// nearest 8-bit value (halves away from zero). Out-of-range input is clamped; hue wraps (1.0 is red again).
    public init(_ color: Color) {
        let hue = color.hue.isFinite ? color.hue - color.hue.rounded(.down) : 0
        let saturation = Self.clamp(color.saturation)
        let value = Self.clamp(color.brightness)
        let scaled = hue * 6
        let sector = Int(scaled.rounded(.down)) % 6
        let fraction = scaled - scaled.rounded(.down)
        let p = value * (1 - saturation)
        let q = value * (1 - saturation * fraction)
        let t = value * (1 - saturation * (1 - fraction))
        let (r, g, b): (Double, Double, Double)
        switch sector {
        case 0: (r, g, b) = (value, t, p)
        case 1: (r, g, b) = (q, value, p)
        case 2: (r, g, b) = (p, value, t)
        case 3: (r, g, b) = (p, q, value)
        case 4: (r, g, b) = (t, p, value)
        default: (r, g, b) = (value, p, q)
        }
        self.init(red: Self.byte(r), green: Self.byte(g), blue: Self.byte(b))
    }

    /// CSS hex notation, lower case: `#e6cf00` (a component outside 0…255 is clamped). Written byte by byte: every
    /// row and card with a colour asks for it, and three `String(_:radix:)`s joined were a visible part of Home's view.
    public var hex: String {
        String(unsafeUninitializedCapacity: 7) { buffer in
            buffer[0] = UInt8(ascii: "#")
            for (index, component) in [red, green, blue].enumerated() {
                let byte = UInt8(clamping: component)
                buffer[1 + 2 * index] = Self.hexDigits[Int(byte >> 4)]
                buffer[2 + 2 * index] = Self.hexDigits[Int(byte & 0x0F)]
            }
            return 7
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// CSS functional notation: `rgb(230, 207, 0)`.
    public var css: String { "rgb(\(red), \(green), \(blue))" }

    /// WCAG relative luminance, 0 (black) … 1 (white).
    public var relativeLuminance: Double {
        0.2126 * Self.linear(red) + 0.7152 * Self.linear(green) + 0.0722 * Self.linear(blue)
    }

    /// WCAG contrast ratio between two colours, 1…21.
    public static func contrast(_ a: RGBColor, _ b: RGBColor) -> Double {
        contrast(a.relativeLuminance, b.relativeLuminance)
    }

    /// Black or white, whichever contrasts more with this colour (black on an exact tie).
    public var readableText: RGBColor {
        let luminance = relativeLuminance
        return Self.contrast(luminance, Self.blackLuminance) >= Self.contrast(luminance, Self.whiteLuminance)
            ? .black : .white
    }

    private static func contrast(_ la: Double, _ lb: Double) -> Double {
        (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// A component's linear value, from `linearValues` for 0…255 (clamped: a component is 0…255 by its contract).
    private static func linear(_ component: Int) -> Double {
        linearValues[min(max(component, 0), 255)]
    }

    /// The sRGB transfer function's inverse for every 8-bit component, computed once: every card, row and section
    /// with a colour asks for its text colour, which took nine `pow` calls (the two contrasts' luminances) per
    /// colour, a twentieth of a new version's People.
    private static let linearValues: [Double] = (0...255).map { component in
        let c = Double(component) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    private static let blackLuminance = RGBColor.black.relativeLuminance
    private static let whiteLuminance = RGBColor.white.relativeLuminance

    /// `#000000`.
    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    /// `#ffffff`.
    public static let white = RGBColor(red: 255, green: 255, blue: 255)

    private static func clamp(_ x: Double) -> Double { x.isFinite ? min(max(x, 0), 1) : 0 }
    private static func byte(_ x: Double) -> Int { Int((x * 255).rounded(.toNearestOrAwayFromZero)) }
}
