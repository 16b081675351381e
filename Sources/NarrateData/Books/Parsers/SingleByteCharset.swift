/// The single-byte character sets FictionBook files are found in (Russian and other
/// Cyrillic books above all, Central and Western European ones), as the Unicode scalars of
/// bytes 0x80–0xFF; bytes below 0x80 are ASCII. A byte a set leaves undefined is U+FFFD.
/// (Tables from Python's codecs; Foundation on Linux has no converter for most of these.)
enum SingleByteCharset {
    /// The table for an encoding name as an XML declaration gives it (`windows-1251`, `KOI8-R`,
    /// `cp866`, `ISO-8859-1`…), or nil when it is not one of these: bytes 0x80–0xFF's scalars.
    static func table(named name: String) -> [Unicode.Scalar]? {
        let key = name.lowercased().filter { $0.isLetter || $0.isNumber }
        return switch key {
        case "windows1251", "cp1251", "win1251", "xcp1251": scalars(windows1251)
        case "koi8r", "koi8": scalars(koi8R)
        case "koi8u": scalars(koi8U)
        case "ibm866", "cp866", "866", "csibm866": scalars(ibm866)
        case "iso88595", "isoir144", "cyrillic": scalars(iso8859_5)
        case "windows1250", "cp1250", "win1250", "xcp1250": scalars(windows1250)
        case "iso88592", "latin2", "l2", "isoir101": scalars(iso8859_2)
        case "windows1252", "cp1252", "win1252", "xcp1252": scalars(windows1252)
        case "iso885915", "latin9", "l9": scalars(iso8859_15)
        case "iso88591", "latin1", "l1", "isoir100", "usascii", "ascii", "cp819": latin1
        default: nil
        }
    }

    /// ISO-8859-1: each byte is the scalar of its value (ASCII is its lower half).
    static let latin1: [Unicode.Scalar] = (0x80...0xFF).compactMap { Unicode.Scalar(UInt32($0)) }

    /// Decodes `bytes` with `table` (128 scalars, for bytes 0x80–0xFF) into UTF-8.
    static func utf8(_ bytes: some Collection<UInt8>, table: [Unicode.Scalar]) -> [UInt8] {
        let encoded = table.map { Array(String($0).utf8) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 2)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else if Int(byte) - 0x80 < encoded.count {
                output.append(contentsOf: encoded[Int(byte) - 0x80])
            } else {
                output.append(contentsOf: [0xEF, 0xBF, 0xBD])
            }
        }
        return output
    }

    private static func scalars(_ table: String) -> [Unicode.Scalar] { Array(table.unicodeScalars) }

    /// Cyrillic (Windows).
    static let windows1251 = "ЂЃ‚ѓ„…†‡€‰Љ‹ЊЌЋЏђ‘’“”•–—\u{FFFD}™љ›њќћџ"
        + "\u{A0}ЎўЈ¤Ґ¦§Ё©Є«¬\u{AD}®Ї°±Ііґµ¶·ё№є»јЅѕї"
        + "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
        + "абвгдежзийклмнопрстуфхцчшщъыьэюя"
    /// Russian KOI8-R.
    static let koi8R = "─│┌┐└┘├┤┬┴┼▀▄█▌▐░▒▓⌠■∙√≈≤≥\u{A0}⌡°²·÷"
        + "═║╒ё╓╔╕╖╗╘╙╚╛╜╝╞╟╠╡Ё╢╣╤╥╦╧╨╩╪╫╬©"
        + "юабцдефгхийклмнопярстужвьызшэщчъ"
        + "ЮАБЦДЕФГХИЙКЛМНОПЯРСТУЖВЬЫЗШЭЩЧЪ"
    /// Ukrainian KOI8-U.
    static let koi8U = "─│┌┐└┘├┤┬┴┼▀▄█▌▐░▒▓⌠■∙√≈≤≥\u{A0}⌡°²·÷"
        + "═║╒ёє╔ії╗╘╙╚╛ґ╝╞╟╠╡ЁЄ╣ІЇ╦╧╨╩╪Ґ╬©"
        + "юабцдефгхийклмнопярстужвьызшэщчъ"
        + "ЮАБЦДЕФГХИЙКЛМНОПЯРСТУЖВЬЫЗШЭЩЧЪ"
    /// Cyrillic (DOS).
    static let ibm866 = "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
        + "абвгдежзийклмноп░▒▓│┤╡╢╖╕╣║╗╝╜╛┐"
        + "└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀"
        + "рстуфхцчшщъыьэюяЁёЄєЇїЎў°∙·√№¤■\u{A0}"
    /// Cyrillic (ISO).
    static let iso8859_5 = "\u{80}\u{81}\u{82}\u{83}\u{84}\u{85}\u{86}\u{87}\u{88}\u{89}\u{8A}\u{8B}\u{8C}\u{8D}\u{8E}\u{8F}\u{90}\u{91}\u{92}\u{93}\u{94}\u{95}\u{96}\u{97}\u{98}\u{99}\u{9A}\u{9B}\u{9C}\u{9D}\u{9E}\u{9F}"
        + "\u{A0}ЁЂЃЄЅІЇЈЉЊЋЌ\u{AD}ЎЏАБВГДЕЖЗИЙКЛМНОП"
        + "РСТУФХЦЧШЩЪЫЬЭЮЯабвгдежзийклмноп"
        + "рстуфхцчшщъыьэюя№ёђѓєѕіїјљњћќ§ўџ"
    /// Central European (Windows).
    static let windows1250 = "€\u{FFFD}‚\u{FFFD}„…†‡\u{FFFD}‰Š‹ŚŤŽŹ\u{FFFD}‘’“”•–—\u{FFFD}™š›śťžź"
        + "\u{A0}ˇ˘Ł¤Ą¦§¨©Ş«¬\u{AD}®Ż°±˛ł´µ¶·¸ąş»Ľ˝ľż"
        + "ŔÁÂĂÄĹĆÇČÉĘËĚÍÎĎĐŃŇÓÔŐÖ×ŘŮÚŰÜÝŢß"
        + "ŕáâăäĺćçčéęëěíîďđńňóôőö÷řůúűüýţ˙"
    /// Central European (ISO).
    static let iso8859_2 = "\u{80}\u{81}\u{82}\u{83}\u{84}\u{85}\u{86}\u{87}\u{88}\u{89}\u{8A}\u{8B}\u{8C}\u{8D}\u{8E}\u{8F}\u{90}\u{91}\u{92}\u{93}\u{94}\u{95}\u{96}\u{97}\u{98}\u{99}\u{9A}\u{9B}\u{9C}\u{9D}\u{9E}\u{9F}"
        + "\u{A0}Ą˘Ł¤ĽŚ§¨ŠŞŤŹ\u{AD}ŽŻ°ą˛ł´ľśˇ¸šşťź˝žż"
        + "ŔÁÂĂÄĹĆÇČÉĘËĚÍÎĎĐŃŇÓÔŐÖ×ŘŮÚŰÜÝŢß"
        + "ŕáâăäĺćçčéęëěíîďđńňóôőö÷řůúűüýţ˙"
    /// Western (Windows).
    static let windows1252 = "€\u{FFFD}‚ƒ„…†‡ˆ‰Š‹Œ\u{FFFD}Ž\u{FFFD}\u{FFFD}‘’“”•–—˜™š›œ\u{FFFD}žŸ"
        + "\u{A0}¡¢£¤¥¦§¨©ª«¬\u{AD}®¯°±²³´µ¶·¸¹º»¼½¾¿"
        + "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞß"
        + "àáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ"
    /// Western with the euro (ISO).
    static let iso8859_15 = "\u{80}\u{81}\u{82}\u{83}\u{84}\u{85}\u{86}\u{87}\u{88}\u{89}\u{8A}\u{8B}\u{8C}\u{8D}\u{8E}\u{8F}\u{90}\u{91}\u{92}\u{93}\u{94}\u{95}\u{96}\u{97}\u{98}\u{99}\u{9A}\u{9B}\u{9C}\u{9D}\u{9E}\u{9F}"
        + "\u{A0}¡¢£€¥Š§š©ª«¬\u{AD}®¯°±²³Žµ¶·ž¹º»ŒœŸ¿"
        + "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞß"
        + "àáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ"
}
