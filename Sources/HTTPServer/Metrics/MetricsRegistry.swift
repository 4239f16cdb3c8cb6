import Synchronization

/// Named metric families with labelled series, rendered in the Prometheus text exposition format 0.0.4.
/// Asking twice for the same name and labels returns the same series, so callers may cache or not.
public final class MetricsRegistry: Sendable {
    enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    enum Series: Sendable {
        case counter(Counter)
        case gauge(Gauge)
        case histogram(Histogram)
    }

    struct Family: Sendable {
        let name: String
        let help: String
        let kind: Kind
        var series: [(labels: [(String, String)], key: String, metric: Series)] = []
    }

    private struct State: Sendable {
        var families: [Family] = []
        var indexByName: [String: Int] = [:]
    }

    private let state = Mutex(State())
    private let collectors = Mutex<[@Sendable () -> Void]>([])

    /// The Content-Type of `render()`'s output.
    public static let contentType = PrometheusText.contentType

    public init() {}

    public func counter(_ name: String, help: String, labels: [String: String] = [:]) -> Counter {
        let series = register(name, help: help, kind: .counter, labels: labels) { .counter(Counter()) }
        guard case .counter(let counter) = series else { preconditionFailure("\(name) is not a counter") }
        return counter
    }

    public func gauge(_ name: String, help: String, labels: [String: String] = [:]) -> Gauge {
        let series = register(name, help: help, kind: .gauge, labels: labels) { .gauge(Gauge()) }
        guard case .gauge(let gauge) = series else { preconditionFailure("\(name) is not a gauge") }
        return gauge
    }

    public func histogram(
        _ name: String, help: String, labels: [String: String] = [:], buckets: [Double] = Histogram.defaultBuckets
    ) -> Histogram {
        let series = register(name, help: help, kind: .histogram, labels: labels) {
            .histogram(Histogram(buckets: buckets))
        }
        guard case .histogram(let histogram) = series else { preconditionFailure("\(name) is not a histogram") }
        return histogram
    }

    /// Runs `collect` before every `render()`, for gauges that are cheaper to sample than to track.
    public func onCollect(_ collect: @escaping @Sendable () -> Void) {
        collectors.withLock { $0.append(collect) }
    }

    private func register(
        _ name: String, help: String, kind: Kind, labels: [String: String], make: () -> Series
    ) -> Series {
        let sortedLabels = labels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let key = sortedLabels.map { "\($0.0)=\($0.1)" }.joined(separator: "\u{1F}")
        return state.withLock { state in
            let index: Int
            if let existing = state.indexByName[name] {
                index = existing
                precondition(state.families[index].kind == kind, "metric \(name) registered with another type")
            } else {
                index = state.families.count
                state.families.append(Family(name: name, help: help, kind: kind))
                state.indexByName[name] = index
            }
            if let found = state.families[index].series.first(where: { $0.key == key }) {
                return found.metric
            }
            let metric = make()
            state.families[index].series.append((labels: sortedLabels, key: key, metric: metric))
            return metric
        }
    }

    var families: [Family] {
        state.withLock { $0.families }
    }

    public func render() -> String {
        for collect in collectors.withLock({ $0 }) { collect() }
        return PrometheusText.render(families)
    }
}
