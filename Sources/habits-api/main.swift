import CommandLineKit
import Foundation
import HabitsSimulator
import Logging

// Kept tiny on purpose: main.swift is main-actor code, and a Dispatch handler defined here traps at run time
// when it fires off the main queue (`dispatch_assert_queue`), so all Dispatch work lives in libraries.
let options = CommandLineTool.options(program: "habits-api", usage: SimulatorOptions.usage) {
    () throws(CommandLineError) in try SimulatorOptions.parse(Array(CommandLine.arguments.dropFirst()))
}
exit(await SimulatorCommand.run(options, logger: Logger(label: "habits-api")))
