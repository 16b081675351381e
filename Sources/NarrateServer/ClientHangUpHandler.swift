import NIOCore

/// Closes a connection whose client has closed its side. Hummingbird allows half-closed
/// connections, so a client that hangs up (a browser tab closed, curl interrupted) would
/// otherwise leave its request waiting in the queue or being synthesized for nobody; closing
/// fires the channel's `closeFuture`, which cancels the waiting, and makes the next write of a
/// response fail, which stops the synthesis.
final class ClientHangUpHandler: ChannelInboundHandler, RemovableChannelHandler {
    // Reads pass through untouched; only the input-closed event matters.
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
