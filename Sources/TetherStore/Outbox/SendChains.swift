import Foundation
import TetherSync

/// The updates of one entity that this process sends back to back: when a write is confirmed and the entity's next
/// update already waits in the outbox (saved leased by this process), the next one's request is made from the
/// answer just received and sent at once, from the same task, with no transaction and no hop to another thread in
/// between. Its outcome goes to its caller, which waits on its ``ChainLink``.
///
/// A chain begins with a write taken at its saving (the first of its entity in the outbox) and takes the entity's
/// later updates as they are saved. When none waits after a confirmed write, it rests with that write's answer:
/// the entity's next update, if every earlier write of the entity is one the chain had confirmed, starts it again
/// over that answer. A write that is not confirmed, or a write of the entity saved outside the chain, ends it: the
/// links left then go the ordinary way (claimed from the database, in order).
///
/// - Thread safety: `Sendable`; every method takes one lock and never waits under it.
final class SendChains: Sendable {
    private enum Chain {
        /// Sending: the links wait in order.
        case running(token: Int, links: [ChainLink])
        /// Every write the chain took is confirmed; `server` and `etag` are the last answer's.
        case resting(server: Data, etag: String?)
    }

    /// How a saved update joined its entity's chain.
    enum Joined {
        /// At the end of the running chain: the chain sends it.
        case link(ChainLink)
        /// It starts the resting chain again (token `token`): the saver sends it over `server`.
        case restart(token: Int, server: Data, etag: String?)
    }

    private let state = Locked<(chains: [String: Chain], nextToken: Int)>(([:], 0))

    /// Resting chains kept at most (each holds an answer); past it they are all dropped.
    private static let restingLimit = 256

    /// The key of an entity's chain.
    static func key(type: String, id: String) -> String { type + "\u{0}" + id }

    /// Starts the chain of the entity whose write was just taken at its saving; called inside that save's
    /// transaction. Returns the chain's token.
    func begin(_ key: String) -> Int {
        let (token, orphans) = state.withLock { state -> (Int, [ChainLink]) in
            state.nextToken += 1
            var orphans: [ChainLink] = []
            if case .running(_, let links) = state.chains[key] { orphans = links }
            state.chains[key] = .running(token: state.nextToken, links: [])
            return (state.nextToken, orphans)
        }
        // None should be left (their entries would be in the outbox before this one); if any were, they go the
        // ordinary way.
        for link in orphans { link.finish(nil) }
        return token
    }

    /// Called inside the saving transaction of a write whose entity has earlier writes in the outbox: with
    /// `eligible` (an update, and every earlier write is queued and leased by this process) it joins the running
    /// chain or starts the resting one; without, the entity's chain ends (that write comes between).
    func join(_ key: String, eligible: Bool) -> Joined? {
        let (joined, orphans) = state.withLock { state -> (Joined?, [ChainLink]) in
            guard eligible else {
                var orphans: [ChainLink] = []
                if case .running(_, let links) = state.chains[key] { orphans = links }
                state.chains[key] = nil
                return (nil, orphans)
            }
            switch state.chains[key] {
            case .running(let token, var links):
                let link = ChainLink()
                links.append(link)
                state.chains[key] = .running(token: token, links: links)
                return (.link(link), [])
            case .resting(let server, let etag):
                state.nextToken += 1
                state.chains[key] = .running(token: state.nextToken, links: [])
                return (.restart(token: state.nextToken, server: server, etag: etag), [])
            case nil:
                return (nil, [])
            }
        }
        for link in orphans { link.finish(nil) }
        return joined
    }

    /// Takes a link out of its chain (its save failed: nothing to send).
    func remove(_ link: ChainLink, key: String) {
        state.withLock { state in
            guard case .running(let token, var links) = state.chains[key] else { return }
            links.removeAll { $0 === link }
            state.chains[key] = .running(token: token, links: links)
        }
    }

    /// The chain's next link after a write confirmed with `server` and `etag`, or `nil` when none waits (the chain
    /// rests with that answer).
    func next(_ key: String, token: Int, server: Data, etag: String?) -> ChainLink? {
        state.withLock { state -> ChainLink? in
            guard case .running(token, var links) = state.chains[key] else { return nil }
            guard !links.isEmpty else {
                state.chains[key] = .resting(server: server, etag: etag)
                if state.chains.count > Self.restingLimit {
                    state.chains = state.chains.filter { if case .running = $0.value { true } else { false } }
                }
                return nil
            }
            let link = links.removeFirst()
            state.chains[key] = .running(token: token, links: links)
            return link
        }
    }

    /// Ends the chain: its links left go the ordinary way.
    func stop(_ key: String, token: Int) {
        let links = state.withLock { state -> [ChainLink] in
            guard case .running(token, let links) = state.chains[key] else { return [] }
            state.chains[key] = nil
            return links
        }
        for link in links { link.finish(nil) }
    }
}

/// One update in a ``SendChains`` chain: its saved entry (once committed), and its outcome once sent, or `nil`
/// when the chain stopped before it.
///
/// - Thread safety: `Sendable`; set from any thread, awaited from one.
final class ChainLink: Sendable {
    typealias Outcome = (outcome: OutboxOutcome, event: OutboxEvent?)

    private let saved = Latch<ClaimedEntry?>()
    private let outcome = Latch<Outcome?>()

    /// Called once the entry's saving transaction ended: with what to send, or `nil` when it failed.
    func committed(_ entry: ClaimedEntry?) { saved.set(entry) }

    /// The saved entry, once its transaction ended (`nil`: not saved).
    func entry() async -> ClaimedEntry? { await saved.value() }

    /// Called once: with the outcome of the send, or `nil` when the chain did not send it.
    func finish(_ result: Outcome?) { outcome.set(result) }

    /// The outcome, once known (`nil`: the chain did not send it; it goes the ordinary way).
    func result() async -> Outcome? { await outcome.value() }
}
