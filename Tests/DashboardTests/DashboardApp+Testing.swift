import Foundation
import HTTPServer
import HabitsAPI
import Timing

@testable import DashboardCore
@testable import DashboardWeb

/// The app as the suites build it: over an upstream they give (a fake), with the state made from it here, as
/// `DashboardState.start` makes it from the options in production.
extension DashboardApp {
    /// The app over `upstream`, `settings` (whose store the state shares) and `clock`; `images` and `snapshots`
    /// default to ones on `clock`.
    convenience init(
        upstream: any HabitsAPI, images: ImageCache? = nil, renderer: PageRenderer, settings: BrowserSettings,
        originCheck: OriginCheck = OriginCheck(), staticFiles: (any HTTPResponder)? = nil,
        metrics: (@Sendable ([CacheUse]) async -> String)? = nil, clock: any TimeSource = SystemTimeSource(),
        snapshots: SnapshotStore? = nil, health: (@Sendable () -> String)? = nil,
        parking: ParkingLimits = ParkingLimits()
    ) {
        self.init(
            state: DashboardState(
                upstream: upstream, settings: settings.store, images: images, snapshots: snapshots, clock: clock,
                parking: parking),
            renderer: renderer, settings: settings, originCheck: originCheck, staticFiles: staticFiles,
            metrics: metrics, health: health)
    }

    /// The state's snapshot store (internal to DashboardCore, reached here through `@testable`).
    var snapshots: SnapshotStore { state.snapshots }
    /// The state's upstream.
    var upstream: any HabitsAPI { state.upstream }
    /// The state's images.
    var images: ImageCache { state.images }
    /// The state's clock.
    var clock: any TimeSource { web.clock }
    /// The rendered pages and fragments.
    var renderCache: RenderCache { web.renderCache }
    /// The parked places' fair share.
    var parkedPolls: ParkedPolls { web.parkedPolls }
}

extension BrowserSettings {
    /// Settings over `store` (a suite's file or database store).
    init(
        store: any SettingsBackend<Settings>, signer: CookieSigner = .ephemeral(),
        newBrowsers: NewBrowserLimiter = NewBrowserLimiter(), trustedProxies: [AddressRange] = [],
        site: SitePolicy = SitePolicy()
    ) {
        self.init(
            store: SettingsAccess(store), signer: signer, newBrowsers: newBrowsers, trustedProxies: trustedProxies,
            site: site)
    }

    /// Settings over `store` with a signer slot.
    init(
        store: any SettingsBackend<Settings>, signers: CookieSignerSlot, newBrowsers: NewBrowserLimiter,
        trustedProxies: [AddressRange], site: SitePolicy
    ) {
        self.init(
            store: SettingsAccess(store), signers: signers, newBrowsers: newBrowsers, trustedProxies: trustedProxies,
            site: site)
    }
}

extension DashboardService {
    /// The state's snapshot store.
    var snapshots: SnapshotStore { state.snapshots }
}
