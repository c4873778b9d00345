/// The database's cookie secret is not this dashboard's (issue 48 point 4): the start is refused, since dashboards with
/// different secrets would each reject the cookies the others mint.
public enum CookieSecretMismatch: Error, Equatable, CustomStringConvertible {
    /// Another dashboard's outside secret has another fingerprint.
    case fingerprintDiffers
    /// The database still holds a secret in clear, and it is not the outside one.
    case clearSecretDiffers
    /// The cluster's secret lives outside the database, and this dashboard was given none.
    case onlyFingerprintStored

    public var description: String {
        switch self {
        case .fingerprintDiffers:
            "the cookie secret's fingerprint in the database (cluster_secrets.cookie_secret_fingerprint) is not this "
                + "dashboard's: every dashboard of a cluster needs the same --cookie-secret-file (or credential)"
        case .clearSecretDiffers:
            "the database holds another cookie secret (cluster_secrets.cookie_secret) than --cookie-secret-file (or "
                + "the credential): put that one in the file to keep every browser's cookie, or delete the row"
        case .onlyFingerprintStored:
            "the cluster's cookie secret is kept outside the database (cluster_secrets.cookie_secret_fingerprint): "
                + "start this dashboard with the same --cookie-secret-file (or credential)"
        }
    }
}
