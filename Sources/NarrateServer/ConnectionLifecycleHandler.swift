import NIOCore

/// Two things about ending a connection that Hummingbird leaves to the application:
/// - A client that hangs up (closes its side: a closed browser tab, an interrupted curl) gets
///   its connection closed at once. Hummingbird allows half-closed connections, so its request
///   would otherwise wait in the queue, or be synthesized, for nobody: closing fires the
///   channel's `closeFuture`, which cancels the waiting, and fails the next write of the
///   response, which stops the synthesis.
/// - A close while the response is still being sent (SIGTERM's graceful shutdown closes a
///   connection as soon as the handler has handed over the last part) waits until what was
///   written has reached the socket, up to `drainDeadline`: otherwise a slow reader loses the
///   end of its audio.
final class ConnectionLifecycleHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny

    private let drainDeadline: TimeAmount
    private var pendingWrites = 0
    private var deferredClose: (mode: CloseMode, promise: EventLoopPromise<Void>?)?

    init(drainDeadline: TimeAmount) {
        self.drainDeadline = drainDeadline
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let promise = promise ?? context.eventLoop.makePromise()
        pendingWrites += 1
        promise.futureResult.assumeIsolated().whenComplete { _ in
            self.pendingWrites -= 1
            if self.pendingWrites == 0, let close = self.deferredClose {
                self.deferredClose = nil
                context.close(mode: close.mode, promise: close.promise)
            }
        }
        context.write(data, promise: promise)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, pendingWrites > 0, deferredClose == nil else {
            context.close(mode: mode, promise: promise)
            return
        }
        deferredClose = (mode, promise)
        context.flush()
        context.eventLoop.assumeIsolated().scheduleTask(in: drainDeadline) {
            guard let close = self.deferredClose else { return }
            self.deferredClose = nil
            context.close(mode: close.mode, promise: close.promise)
        }
    }
}
