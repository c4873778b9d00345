// libFuzzer harness for the settings file decoder: the bytes of `<settings-dir>/<id>.json` decoded into `Settings`
// exactly as SettingsStore reads them (JSONDecoder over the file's bytes). A file on disk may be truncated, edited
// by hand or planted, so it is input like any other. Built only with HABITS_FUZZ=1 (see docs/FUZZING.md).
//
// Invariants: decoding never crashes (a thrown error is what SettingsStore turns into "move aside, use defaults");
// settings that decode re-encode, as the store writes them, to bytes that decode to the same settings, and toggling
// a favourite twice leaves it as it was. To fuzz another decoder, change `decode` and keep the rest.

import DashboardCore
import Foundation
import FuzzSupport

/// The decoding step of SettingsStore's read (Sources/DashboardCore/Settings/SettingsStore.swift).
func decode(_ bytes: [UInt8]) throws -> Settings {
    try JSONDecoder().decode(Settings.self, from: Data(bytes))
}

/// The encoding step of SettingsStore's update.
func encode(_ settings: Settings) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return Array(try encoder.encode(settings))
}

/// One input: the whole content of a settings file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let settings = try? decode(input) else { return 0 }
    guard let written = try? encode(settings) else { fatalError("decoded settings do not encode") }
    guard let again = try? decode(written) else { fatalError("written settings do not decode") }
    require(again == settings, "settings changed through a write and a read")
    var toggled = settings
    let name = settings.favoriteHabits.first ?? "Yoga"
    toggled.toggleFavorite(name)
    toggled.toggleFavorite(name)
    require(toggled.isFavorite(name) == settings.isFavorite(name), "toggling twice changed whether it is a favourite")
    return 0
}

/// The executable's entry point: hands over to libFuzzer.
@_cdecl("SettingsFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzOneInput)
}
