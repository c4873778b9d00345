import Foundation
import HabitsAPI
import Testing

@testable import HabitsSimulator

@Suite struct DataSetLoaderTests {
    @Test func builtInDataHasTheOriginalServersScale() throws {
        let data = try DataSet.builtIn()
        #expect(data.users.count == 41)
        #expect(data.users.map(\.id) == (0...40).map { "user\($0)" })
        #expect(data.categories.count == 7)
        #expect(data.habits.count == 19)
        #expect(data.activeUser == User(id: "activeUser", name: "Active User"))
        #expect(data.activeUser.name == "Active User")
        let used = Set(data.habits.map(\.category.name))
        #expect(data.categories.filter { !used.contains($0.name) }.map(\.name) == ["Rest"])
        #expect(data.users.allSatisfy { $0.color != nil && !($0.bio ?? "").isEmpty })
    }

    /// The dashboard must route names with "/", "&" and non-ASCII letters, so the built-in data has them.
    @Test func builtInHabitNamesIncludeCharactersThatNeedEncoding() throws {
        let names = try DataSet.builtIn().habits.map(\.name)
        #expect(names.contains { $0.contains("/") })
        #expect(names.contains { $0.contains("&") })
        #expect(names.contains { $0.unicodeScalars.contains { !$0.isASCII } })
        #expect(names.allSatisfy { !$0.contains(",") })
    }

    @Test func builtInDataIsOurOwnText() throws {
        let data = try DataSet.builtIn()
        let referenceNames: Set = ["Aga Orlova", "Amber Spiers", "Meditation", "Yoga", "Brisk walk"]
        #expect(data.users.allSatisfy { !referenceNames.contains($0.name) })
        #expect(data.habits.allSatisfy { !referenceNames.contains($0.name) })
    }

    @Test func loadsAFolderAndResolvesCategories() throws {
        let folder = try TemporaryDataFolder()
        let data = try DataSetLoader.load(directory: folder.url)
        #expect(data.users.map(\.id) == ["u1", "u2", "u3"])
        #expect(data.users[1].color == nil && data.users[1].bio == nil)
        #expect(data.habits.map(\.name) == ["Run", "Sit/Stand", "Think & Do"])
        #expect(data.habits[2].category.name == "Mind")
        #expect(data.habits[2].category.color.hue == 0.7)
        #expect(data.categories.count == 3)
        #expect(data.images.isEmpty)
    }

    @Test func loadsPNGImagesOfKnownUsersOnly() throws {
        let png = PNGEncoder.signature + [1, 2, 3]
        let folder = try TemporaryDataFolder(images: ["u1.png": png, "stranger.png": png, "notes.txt": [65]])
        let data = try DataSetLoader.load(directory: folder.url)
        #expect(data.images == ["u1": png])
    }

    /// CI checks out `shared` beside the clone (`<repo>/../shared`); helper worktrees sit one level deeper.
    /// The test is skipped only where neither folder exists.
    static let referenceFolder: URL? = {
        let repo = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return ["../shared", "../../shared"].map {
            repo.appendingPathComponent("\($0)/reference/habits-data").standardizedFileURL
        }.first { FileManager.default.fileExists(atPath: $0.path) }
    }()

    @Test(.enabled(if: referenceFolder != nil, "reference data not present"))
    func loadsTheOriginalServersReferenceData() throws {
        let data = try DataSetLoader.load(directory: #require(Self.referenceFolder))
        #expect(data.users.count == 41)
        #expect(data.categories.count == 7)
        #expect(data.habits.count == 19)
        #expect(data.activeUser.id == "activeUser")
        #expect(Set(data.habits.map(\.category.name)).count == 6)
    }

    @Test(
        arguments: [
            (["habits.json": nil], "habits.json", "missing file"),
            (["users.json": "[{\"id\": \"u1\", "], "users.json", "invalid JSON"),
            (
                ["users.json": "[\n  {\"id\": \"u1\",\n   \"name\": x}\n]"], "users.json",
                "invalid JSON (line 3, column 12"
            ),
            (["categories.json": "{}"], "categories.json", "expected"),
            (["users.json": #"[{"name": "No Id"}]"#], "users.json", "missing key \"id\" at [0]"),
            (
                ["habits.json": #"[{"name": "Run", "categoryName": "Sport", "info": ""}]"#], "habits.json",
                "habit \"Run\" has unknown category \"Sport\""
            ),
            (
                ["users.json": #"[{"id": "u1", "name": "A"}, {"id": "u1", "name": "B"}]"#], "users.json",
                "duplicate user id \"u1\""
            ),
            (
                [
                    "habits.json":
                        #"[{"name": "Run", "categoryName": "Body", "info": ""}, {"name": "Run", "categoryName": "Mind", "info": ""}]"#
                ],
                "habits.json", "duplicate habit name \"Run\""
            ),
            (
                [
                    "categories.json":
                        #"[{"name": "Body", "color": {"h": 0, "s": 0, "b": 0}}, {"name": "Body", "color": {"h": 0, "s": 0, "b": 0}}]"#
                ],
                "categories.json", "duplicate category name \"Body\""
            ),
            (["activeUser.json": #"{"id": "u2", "name": "Me"}"#], "activeUser.json", "also in users.json"),
            (
                ["users.json": #"[{"id": "u1", "name": "A", "color": {"h": 2, "s": 0, "b": 0}}]"#], "users.json",
                "colour component h = 2.0"
            ),
        ] as [([String: String?], String, String)])
    func badFilesFailNamingTheFileAndTheProblem(files: [String: String?], file: String, problem: String) throws {
        let folder = try TemporaryDataFolder(files: files)
        let error = #expect(throws: DataSetError.self) { try DataSetLoader.load(directory: folder.url) }
        #expect(error?.file == file)
        #expect(error?.problem.contains(problem) == true, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix("\(file): ") == true)
    }

    @Test func anImageThatIsNotAPNGFailsTheLoad() throws {
        let folder = try TemporaryDataFolder(images: ["u2.png": Array("GIF89a".utf8)])
        let error = #expect(throws: DataSetError.self) { try DataSetLoader.load(directory: folder.url) }
        #expect(error == DataSetError(file: "images/u2.png", problem: "not a PNG file"))
    }

    @Test func aMissingFolderIsReported() {
        let error = #expect(throws: DataSetError.self) {
            try DataSetLoader.load(directory: URL(fileURLWithPath: "/nonexistent/habits-data"))
        }
        #expect(error?.description == "/nonexistent/habits-data: no such directory")
    }
}
