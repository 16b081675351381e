import Foundation
import Glibc

/// A local HTTP server with the layout of Piper's voices repository, started by a test:
/// a small Python program (`python3`) serving `root` that honours `Range: bytes=N-` (206, or
/// 416 past the end) unless `root/.no-ranges` exists, logs each request to `root/.requests.log`,
/// and cuts a file's body short once when `root/.cut-<file name>` holds a byte count. Stopped
/// when released.
final class PiperVoicesServer {
    let root: String
    let port: Int
    private let process: Process
    private let scriptFolder: TemporaryDirectory

    static let script = #"""
        import http.server, os, signal, sys
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the test runner may pass it on ignored
        root = sys.argv[1]

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_HEAD(self):
                self.serve(False)

            def do_GET(self):
                self.serve(True)

            def serve(self, with_body):
                with open(os.path.join(root, ".requests.log"), "a") as log:
                    log.write(f"{self.command} {self.path} {self.headers.get('Range', '-')}\n")
                relative = self.path.split("?")[0].lstrip("/")
                path = os.path.join(root, relative)
                if any(part.startswith(".") for part in relative.split("/")) or not os.path.isfile(path):
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                data = open(path, "rb").read()
                start = 0
                wanted = self.headers.get("Range")
                ranges = not os.path.exists(os.path.join(root, ".no-ranges"))
                if ranges and wanted and wanted.startswith("bytes=") and wanted.endswith("-"):
                    start = int(wanted[6:-1])
                    if start >= len(data):
                        self.send_response(416)
                        self.send_header("Content-Range", f"bytes */{len(data)}")
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                else:
                    self.send_response(200)
                payload = data[start:]
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(payload)))
                cut = os.path.join(root, ".cut-" + os.path.basename(path))
                limit = None
                if with_body and os.path.exists(cut):
                    limit = int(open(cut).read())
                    os.remove(cut)
                    self.send_header("Connection", "close")
                self.end_headers()
                if not with_body:
                    return
                if limit is not None:
                    self.wfile.write(payload[:limit])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(payload)

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// Starts serving `root` on a free loopback port.
    init(root: String) throws {
        self.root = root
        scriptFolder = try TemporaryDirectory()
        let script = scriptFolder.path + "/piper-voices-server.py"
        try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, root]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            line += more
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the Piper voices test server did not start (is python3 installed?)"])
        }
        self.port = port
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The requests served so far: "GET /path bytes=N-" (or "-" without a range).
    var requests: [String] {
        ((try? String(contentsOfFile: root + "/.requests.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Makes the server answer every request with the whole file (200), as servers without
    /// range support do.
    func ignoreRanges() throws {
        try "".write(toFile: root + "/.no-ranges", atomically: true, encoding: .utf8)
    }

    /// Makes the next GET of `fileName` send only `bytes` bytes of its body, then close.
    func cutShort(_ fileName: String, after bytes: Int) throws {
        try String(bytes).write(toFile: root + "/.cut-" + fileName, atomically: true, encoding: .utf8)
    }
}
