import Glibc

/// The text of `errno`, for messages.
enum POSIXErrorText {
    static func current() -> String {
        String(cString: strerror(errno))
    }
}
