import NarrateKit

/// An option group that sets part of the configuration, so a command builds its whole
/// configuration in one call: `storage.configuration(paging, matter)`.
protocol ConfigurationOptions {
    func apply(to configuration: inout NarrateConfiguration)
}
