import DashboardCore

/// Colours reach the page as class names, because the Content-Security-Policy forbids inline `style` attributes.
///
/// The class name spells the colours out (`c-e6cf00-000000`), so pages need no shared table: `/colors.css`
/// (`ColorStylesheet`) declares one rule per colour in the current data, and a page uses the class directly.
extension ColorStyle {
    /// The CSS class giving an element this background and text colour, e.g. `c-e6cf00-000000`.
    public var className: String {
        "c-" + Self.hexDigits(background) + "-" + Self.hexDigits(text)
    }

    /// The CSS rules for `className`: background, text, and links inside inheriting the readable text colour.
    public var cssRules: String {
        let name = className
        return ".\(name){background-color:\(background);color:\(text)}"
            + ".\(name) a,.\(name) a:visited{color:inherit}"
    }

    /// `#e6cf00` → `e6cf00`; anything but six hex digits becomes `000000` so a class name never carries odd bytes.
    private static func hexDigits(_ css: String) -> String {
        let digits = css.hasPrefix("#") ? String(css.dropFirst()) : css
        let isHex =
            digits.utf8.count == 6 && digits.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        return isHex ? digits : "000000"
    }
}
