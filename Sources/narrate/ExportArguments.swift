import ArgumentParser
import NarrateKit

// The export's choices, named on the command line by their raw values.
extension ExportSplit: ExpressibleByArgument {}
extension ExportFormat: ExpressibleByArgument {}
extension SubtitleFormat: ExpressibleByArgument {}
extension ReadAlongGranularity: ExpressibleByArgument {}
