import DashboardCore

/// What a page reads, declared beside its view model (issue 18): its template and route, which version of the data it
/// shows and which of the browser's settings. Its render key is made from exactly these, and each page's test proves
/// the declaration true (a setting it does not read changes neither its key nor its bytes; one it reads changes both),
/// so a page that starts reading another setting cannot silently serve another browser's bytes.
struct PageDeclaration: Sendable {
    /// Which data the page shows, and so which version its key carries.
    enum Data: Sendable {
        /// Users, habits and categories only (`Snapshot.referenceVersion`).
        case reference
        /// Everything, counts included (`Snapshot.version`).
        case statistics
        /// Counts and the history's latest slot: the sparklines and "+N in the last hour" then move on every slot
        /// (10 s) while the page is watched, even when the counts stand still, at the cost of at most one rendering
        /// per page per slot; requests in between are still served from the render cache.
        case trend
    }

    /// Which of the browser's settings the page shows.
    enum Reads: Equatable, Sendable {
        /// None: one rendering serves every browser.
        case nothing
        /// The favourite habits.
        case favorites
        /// The followed people.
        case follows
        /// Both lists.
        case favoritesAndFollows
        /// Only whether the page's item (a habit) is a favourite.
        case itemIsFavorite
        /// Only whether the page's item (a person) is followed.
        case itemIsFollowed
    }

    /// The template and route.
    let page: DashboardPage
    /// A fragment (`fragment:<template>`) rather than the whole page (`page:<template>`).
    let isFragment: Bool
    /// The data shown.
    let data: Data
    /// The settings shown.
    let reads: Reads

    /// A page's declaration.
    init(_ page: DashboardPage, data: Data, reads: Reads) {
        self.page = page
        self.isFragment = false
        self.data = data
        self.reads = reads
    }

    /// A live page's fragment's declaration.
    init(fragmentOf live: LivePage, data: Data, reads: Reads) {
        self.page = live.page
        self.isFragment = true
        self.data = data
        self.reads = reads
    }

    /// The render key of the page (of `item`, in the variant `query`, on page `listPage` of its list) for `view` and
    /// `settings`; `trendKey` is the history's `ActivityHistory.trendKey` (what `.trend` pages also change with). The first page's
    /// key is the unpaged one, so a list that fits one page keeps the key it always had.
    func key(
        item: String? = nil, query: String = "", listPage: Int = 1, view: SnapshotView, settings: Versioned<Settings>,
        digests: PersonalDigests, trendKey: Int?
    ) -> RenderKey {
        key(
            item: item, query: query, listPage: listPage, view: view,
            personal: personal(settings, item: item, digests: digests), trendKey: trendKey)
    }

    /// The render key of a page that reads no settings (`reads: .nothing`): made without any, so one rendering
    /// serves every browser and no browser's settings can reach it.
    func sharedKey(
        item: String? = nil, query: String = "", listPage: Int = 1, view: SnapshotView, trendKey: Int?
    ) -> RenderKey {
        precondition(reads == .nothing, "a page that reads settings has no key without them")
        return key(item: item, query: query, listPage: listPage, view: view, personal: .none, trendKey: trendKey)
    }

    private func key(
        item: String?, query: String, listPage: Int, view: SnapshotView, personal: SettingsKey, trendKey: Int?
    ) -> RenderKey {
        let query = Self.joined(query, Pager.query(listPage))
        let route =
            isFragment
            ? "fragment:" + DashboardPage.route(page.template, item, query) : page.key(item: item, query: query)
        return RenderKey(
            route: route, content: content(view, trendKey: trendKey), personal: personal, stale: view.stale?.asOf)
    }

    /// Two query strings joined with `&`, either possibly empty (built without an array: keys are made per request).
    static func joined(_ first: String, _ second: String) -> String {
        first.isEmpty ? second : second.isEmpty ? first : first + "&" + second
    }

    private func content(_ view: SnapshotView, trendKey: Int?) -> UInt64 {
        switch data {
        case .reference:
            return view.snapshot.referenceVersion
        case .statistics:
            return view.snapshot.version
        case .trend:
            guard let trendKey else { return view.snapshot.version }
            var digest = ContentDigest()
            digest.feed(Int(bitPattern: UInt(view.snapshot.version)))
            digest.feed(trendKey)
            return digest.value
        }
    }

    private func personal(_ versioned: Versioned<Settings>, item: String?, digests: PersonalDigests) -> SettingsKey {
        let settings = versioned.value
        return switch reads {
        case .nothing: SettingsKey.none
        case .favorites: digests.of(versioned).favorites
        case .follows: digests.of(versioned).follows
        case .favoritesAndFollows: digests.of(versioned).all
        case .itemIsFavorite: SettingsKey(flag: item.map(settings.isFavorite) ?? false)
        case .itemIsFollowed: SettingsKey(flag: item.map(settings.isFollowed) ?? false)
        }
    }
}
