import Foundation
import Synchronization
import Testing

@testable import NarrateData

/// An object store in memory that records every call. Each operation fails unless the test
/// says what it does: `objects` answers GET, HEAD and PUT; `failure` makes every call throw;
/// `hang` makes calls wait until cancelled or released.
final class ObjectStoreMock: ObjectStoreContract {
    enum Call: Equatable {
        case get(String)
        case exists(String)
        case put(String, ifAbsent: Bool)
    }

    struct State {
        var calls: [Call] = []
        /// The objects, when the store answers at all.
        var objects: [String: [UInt8]]?
        /// The seals objects were put with (or planted with).
        var seals: [String: String] = [:]
        var failure: CacheStoreError?
        var putFailure: CacheStoreError?
        var conditionalPuts = true
        var hang = false
    }

    let state = Mutex(State())
    let location = "s3://mock-bucket/p"

    var calls: [Call] { state.withLock { $0.calls } }

    func serve(_ objects: [String: [UInt8]] = [:]) {
        state.withLock { $0.objects = objects }
    }

    private func begin(_ call: Call) async throws(CacheStoreError) -> [String: [UInt8]] {
        let (objects, failure, hang) = state.withLock { state in
            state.calls.append(call)
            return (state.objects, state.failure, state.hang)
        }
        if hang {
            try? await Task.sleep(for: .seconds(30))
            throw .timedOut(host: "mock", seconds: 30)
        }
        if let failure { throw failure }
        guard let objects else {
            Issue.record("ObjectStoreMock was not told what to answer to \(call)")
            throw .failed(status: 500, code: "Unstubbed")
        }
        return objects
    }

    func get(hex: String) async throws(CacheStoreError) -> StoreObject? {
        guard let bytes = try await begin(.get(hex))[hex] else { return nil }
        return StoreObject(bytes: bytes, seal: state.withLock { $0.seals[hex] })
    }

    func exists(hex: String) async throws(CacheStoreError) -> Bool {
        try await begin(.exists(hex))[hex] != nil
    }

    func put(hex: String, body: ObjectBody, ifAbsent: Bool, seal: String?) async throws(CacheStoreError) -> ObjectPutOutcome {
        let objects = try await begin(.put(hex, ifAbsent: ifAbsent))
        let bytes: [UInt8]
        switch body {
        case let .bytes(given): bytes = given
        case let .file(path):
            guard let data = FileManager.default.contents(atPath: path) else { throw .failed(status: 0, code: "NoFile") }
            bytes = Array(data)
        }
        return try state.withLock { state throws(CacheStoreError) -> ObjectPutOutcome in
            if let failure = state.putFailure { throw failure }
            if ifAbsent, !state.conditionalPuts { return .conditionUnsupported }
            if ifAbsent, objects[hex] != nil { return .alreadyPresent }
            state.objects?[hex] = bytes
            state.seals[hex] = seal
            return .stored
        }
    }
}
