import ArgumentParser
import NarrateKit

/// The user password of an encrypted PDF.
struct PasswordOptions: ParsableArguments, ConfigurationOptions {
    @Option(name: .customLong("password"), help: ArgumentHelp(
        "The user password of an encrypted PDF (else $NARRATE_PDF_PASSWORD). It is handed to the PDF reader, never stored in the library: give it again each time the book is read.",
        valueName: "password"
    ))
    var password: String?

    func apply(to configuration: inout NarrateConfiguration) {
        if let password, !password.isEmpty { configuration.pdfPassword = password }
    }
}
