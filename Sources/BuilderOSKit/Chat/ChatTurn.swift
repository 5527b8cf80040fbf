import Foundation

/// One turn: the user's message and the reply streaming back. A pure state machine, so every
/// rule of the protocol (and of surviving a reconnect) is tested without a socket.
public struct ChatTurn: Sendable, Equatable, Identifiable {
    public enum Phase: Sendable, Equatable {
        /// Written but not yet handed to a socket (offline, or waiting to be re-sent).
        case queued
        /// Sent; no chunk of the reply yet.
        case awaitingReply
        /// At least one chunk arrived.
        case streaming
        case completed
        /// Ended by an `error` frame or an `Error:` reply.
        case failed(String)
        /// The connection dropped mid-reply: the partial reply is kept, the message is not re-sent.
        case interrupted
        /// The user stopped waiting.
        case stopped
        /// The connection dropped before any reply every time the message was sent
        /// (`maxDeliveries` times): it is not sent again by itself.
        case notDelivered(attempts: Int)
    }

    /// How many times one message is handed to a socket before the turn gives up: a server that
    /// closes the connection on a message (or sends a frame the socket rejects) would otherwise
    /// receive it again after every reconnect.
    public static let maxDeliveries = 3

    public let id: UUID
    public let message: OutgoingChatMessage
    public private(set) var phase: Phase = .queued
    public private(set) var reply = ReplyAccumulator()
    /// How many times the message was handed to a socket (1 normally, more after reconnects).
    public private(set) var sendCount = 0

    public init(id: UUID = UUID(), message: OutgoingChatMessage) {
        self.id = id
        self.message = message
    }

    public var isFinished: Bool {
        switch phase {
        case .completed, .failed, .interrupted, .stopped, .notDelivered: return true
        case .queued, .awaitingReply, .streaming: return false
        }
    }

    /// The message was written to the socket.
    public mutating func markSent() {
        guard phase == .queued else { return }
        sendCount += 1
        phase = .awaitingReply
    }

    /// A chunk arrived; returns what became visible.
    public mutating func receive(chunk: String) -> String {
        guard phase == .awaitingReply || phase == .streaming else { return "" }
        phase = .streaming
        return reply.append(chunk)
    }

    /// `complete` arrived; returns the last visible text. An `Error:` reply ends as failed.
    public mutating func complete() -> String {
        guard !isFinished else { return "" }
        let tail = reply.finish()
        phase = reply.isErrorReply ? .failed(reply.visible) : .completed
        return reply.isErrorReply ? "" : tail
    }

    /// An `error` frame arrived.
    public mutating func fail(_ text: String) {
        guard !isFinished else { return }
        _ = reply.finish()
        phase = .failed(text.isEmpty ? L("The assistant could not answer.") : text)
    }

    /// The socket dropped. Re-send only if nothing of the reply arrived and the message has not yet
    /// been sent `maxDeliveries` times; otherwise keep the partial reply and mark the turn interrupted,
    /// or not delivered. Returns true when the message must be sent again.
    public mutating func connectionDropped() -> Bool {
        switch phase {
        case .awaitingReply:
            if sendCount >= Self.maxDeliveries {
                _ = reply.finish()
                phase = .notDelivered(attempts: sendCount)
                return false
            }
            phase = .queued
            return true
        case .streaming:
            _ = reply.finish()
            phase = .interrupted
            return false
        case .queued:
            return true
        case .completed, .failed, .interrupted, .stopped, .notDelivered:
            return false
        }
    }

    public mutating func stop() {
        guard !isFinished else { return }
        _ = reply.finish()
        phase = .stopped
    }
}
