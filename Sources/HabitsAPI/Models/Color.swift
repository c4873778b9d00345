/// A colour as the Habits API sends it: hue, saturation and brightness, each 0…1 (`{"h","s","b"}`).
public struct Color: Codable, Hashable, Sendable {
    /// Hue, 0…1 (a fraction of the colour wheel).
    public var hue: Double
    /// Saturation, 0…1.
    public var saturation: Double
    /// Brightness, 0…1.
    public var brightness: Double

    /// Creates a colour from HSB components.
    public init(hue: Double, saturation: Double, brightness: Double) {
        self.hue = hue
        self.saturation = saturation
        self.brightness = brightness
    }

    enum CodingKeys: String, CodingKey {
        case hue = "h"
        case saturation = "s"
        case brightness = "b"
    }
}
