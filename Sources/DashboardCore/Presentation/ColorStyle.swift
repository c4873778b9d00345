import HabitsAPI

/// A background colour and the text colour that reads best on it, both as CSS `#rrggbb`, ready for a `style`.
public struct ColorStyle: Hashable, Sendable {
    /// The background, e.g. `#e6cf00`.
    public var background: String
    /// `#000000` or `#ffffff`, whichever has the higher WCAG contrast with the background.
    public var text: String

    /// Creates a style from explicit CSS colours.
    public init(background: String, text: String) {
        self.background = background
        self.text = text
    }

    /// The style for an API colour.
    public init(_ color: Color) {
        let rgb = RGBColor(color)
        self.init(background: rgb.hex, text: rgb.readableText.hex)
    }

    /// The style for an optional API colour; users may have none (`null`), and then get `neutral`.
    public init(_ color: Color?) {
        if let color {
            self.init(color)
        } else {
            self = .neutral
        }
    }

    /// Favourites are yellow: HSB (0.15, 1, 0.9) as in the app (SPEC §5).
    public static let favorite = ColorStyle(Color(hue: 0.15, saturation: 1, brightness: 0.9))

    /// A mid grey for users with no colour: HSB (0, 0, 0.6).
    public static let neutral = ColorStyle(Color(hue: 0, saturation: 0, brightness: 0.6))
}
