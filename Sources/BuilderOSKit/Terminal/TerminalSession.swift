import Foundation

/// What a terminal tab shows about its connection: one value, from one state machine.
public enum TerminalState: Sendable, Equatable {
    case connecting
    case connected
    /// Lost; trying again (attempt counts from 1) after `delay` seconds.
    case reconnecting(attempt: Int, delay: Double)
    /// Given up (or the error cannot be retried): the tab offers Reconnect.
    case disconnected(BuilderOSError)
    /// The shell ended (`exit`): the tab offers a new one.
    case ended

    public var isLive: Bool { self == .connected }
}

/// The link a session talks through (`TerminalConnection`, or a fake in tests).
public protocol TerminalLink: AnyObject, Sendable {
    var events: AsyncStream<TerminalEvent> { get }
    func send(_ bytes: Data)
    /// `count` bytes of output have been shown (flow control: see `TerminalConnection`).
    func shown(_ count: Int)
    func resize(rows: Int, cols: Int)
    func close()
}

extension TerminalConnection: TerminalLink {}

/// One terminal tab's life: connect, type the profile's command, pass bytes both ways, and after a
/// drop reconnect with the chat's backoff (a few times, then Disconnected — Reconnect). What was
/// shown stays: a reconnect gets a new shell below the old output.
@MainActor
public final class TerminalSession {
    public typealias Connect = @Sendable () async throws(BuilderOSError) -> any TerminalLink

    public private(set) var state: TerminalState = .connecting
    public let states = Observers<TerminalState>()
    public let output = Observers<Data>()
    /// Attempts after a drop before the tab says Disconnected.
    public static let reconnectAttempts = 5

    private let connect: Connect
    private let startCommand: String
    private let backoff: Backoff
    private var link: (any TerminalLink)?
    private var size: TerminalSize?
    private var run: Task<Void, Never>?

    public init(startCommand: String, backoff: Backoff = .reconnect, connect: @escaping Connect) {
        (self.startCommand, self.backoff, self.connect) = (startCommand, backoff, connect)
    }

    /// Connects (again): from the start, or after Disconnected/ended.
    public func start() {
        run?.cancel()
        run = Task { [weak self] in await self?.loop() }
    }

    /// Closes the socket for good (the tab closes).
    public func stop() {
        run?.cancel()
        run = nil
        link?.close()
        link = nil
    }

    public func send(_ bytes: Data) { link?.send(bytes) }

    /// The view has shown `count` bytes of output; the link may read more. Output still queued in the
    /// view when the link changed counts against the new one harmlessly (the window only loosens).
    public func shown(_ count: Int) { link?.shown(count) }

    /// The view's size in cells; sent now and after every reconnect.
    public func resize(rows: Int, cols: Int) {
        let new = TerminalSize(rows: rows, cols: cols)
        guard new != size else { return }
        size = new
        link?.resize(rows: new.rows, cols: new.cols)
    }

    private func set(_ new: TerminalState) {
        state = new
        states.notify(new)
    }

    private func loop() async {
        var attempt = 0
        while !Task.isCancelled {
            set(attempt == 0 ? .connecting : state)
            let opened: any TerminalLink
            do {
                opened = try await connect()
            } catch {
                guard !Task.isCancelled else { return }
                // A server without terminals will not grow them by retrying.
                if error.stopsReconnecting || error == .notAvailableOnServer || attempt >= Self.reconnectAttempts {
                    return set(.disconnected(error))
                }
                attempt += 1
                guard await wait(attempt: attempt) else { return }
                continue
            }
            guard !Task.isCancelled else { opened.close(); return }
            link = opened
            attempt = 0
            set(.connected)
            if let size { opened.resize(rows: size.rows, cols: size.cols) }
            if let start = TerminalProfile.startBytes(command: startCommand) { opened.send(start) }
            var shellExited = false
            for await event in opened.events {
                switch event {
                case .output(let data): output.notify(data)
                case .closed(let exited): shellExited = exited
                }
            }
            link = nil
            guard !Task.isCancelled else { return }
            if shellExited { return set(.ended) }
            attempt = 1
            guard await wait(attempt: attempt) else { return }
        }
    }

    /// Shows Reconnecting… and waits the backoff; false when cancelled.
    private func wait(attempt: Int) async -> Bool {
        let delay = backoff.delay(forAttempt: attempt - 1)
        set(.reconnecting(attempt: attempt, delay: delay))
        try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
        return !Task.isCancelled
    }
}
