import Foundation
import HabitsAPI

/// Draws a profile picture for a user without one: their initials on a disc in their colour.
///
/// Pure and deterministic: the same user always gives the same bytes, so the image can be cached and its
/// ETag stays stable across restarts.
enum AvatarRenderer {
    /// Side of the square image in pixels.
    static let size = 128
    /// Each font pixel becomes a `scale`×`scale` block.
    static let scale = 7
    /// Colour for users without one: a neutral grey.
    static let fallbackColor = Color(hue: 0, saturation: 0, brightness: 0.6)

    /// The PNG for `user`.
    static func png(for user: User) -> [UInt8] {
        let color = user.color ?? fallbackColor
        let background = rgb(color)
        let disc = rgb(Color(hue: color.hue, saturation: color.saturation, brightness: color.brightness * 0.8))
        let text =
            luminance(background) > 0.55
            ? PNGEncoder.RGB(red: 26, green: 26, blue: 26) : .init(red: 255, green: 255, blue: 255)
        let pixels = draw(initials: initials(of: user.name))
        return PNGEncoder.encode(
            width: size, height: size, bitDepth: 2, palette: [background, disc, text], pixels: pixels)
    }

    /// Up to two letters: the first of the first word and of the last word, accents dropped, upper-cased.
    /// Letters the font lacks are skipped; a name with none left gives "?".
    static func initials(of name: String) -> String {
        let words = name.split(whereSeparator: { $0.isWhitespace })
        let picked = [words.first, words.count > 1 ? words.last : nil].compactMap { word -> Character? in
            guard let word else { return nil }
            let folded = String(word).folding(options: [.diacriticInsensitive], locale: nil).uppercased()
            return folded.first { BitmapFont.contains($0) }
        }
        return picked.isEmpty ? "?" : String(picked)
    }

    /// Palette indexes: 0 background, 1 disc, 2 text.
    static func draw(initials: String) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: size * size)
        let center = Double(size - 1) / 2
        let radius = Double(size) * 0.42
        for y in 0..<size {
            for x in 0..<size where hypot(Double(x) - center, Double(y) - center) <= radius {
                pixels[y * size + x] = 1
            }
        }
        let letters = Array(initials)
        let glyphWidth = BitmapFont.width * scale
        let gap = scale
        let textWidth = letters.count * glyphWidth + (letters.count - 1) * gap
        let left = (size - textWidth) / 2
        let top = (size - BitmapFont.height * scale) / 2
        for (index, letter) in letters.enumerated() {
            let originX = left + index * (glyphWidth + gap)
            for y in 0..<BitmapFont.height * scale {
                for x in 0..<glyphWidth where BitmapFont.isSet(letter, x: x / scale, y: y / scale) {
                    pixels[(top + y) * size + originX + x] = 2
                }
            }
        }
        return pixels
    }

    /// HSB (each 0…1) to 8-bit RGB, the usual hexcone conversion.
    static func rgb(_ color: Color) -> PNGEncoder.RGB {
        let h = (color.hue - color.hue.rounded(.down)) * 6
        let s = min(max(color.saturation, 0), 1)
        let v = min(max(color.brightness, 0), 1)
        let sector = Int(h) % 6
        let f = h - h.rounded(.down)
        let p = v * (1 - s)
        let q = v * (1 - s * f)
        let t = v * (1 - s * (1 - f))
        let (r, g, b): (Double, Double, Double) =
            switch sector {
            case 0: (v, t, p)
            case 1: (q, v, p)
            case 2: (p, v, t)
            case 3: (p, q, v)
            case 4: (t, p, v)
            default: (v, p, q)
            }
        func byte(_ x: Double) -> UInt8 { UInt8((x * 255).rounded()) }
        return PNGEncoder.RGB(red: byte(r), green: byte(g), blue: byte(b))
    }

    /// Relative luminance (sRGB weights, no gamma: good enough to pick black or white text).
    static func luminance(_ color: PNGEncoder.RGB) -> Double {
        (0.2126 * Double(color.red) + 0.7152 * Double(color.green) + 0.0722 * Double(color.blue)) / 255
    }
}
