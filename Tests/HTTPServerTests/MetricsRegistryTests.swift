@testable import HTTPServer
import Testing

@Suite("Metrics registry")
struct MetricsRegistryTests {
    @Test func returnsTheSameSeriesForTheSameNameAndLabels() {
        let registry = MetricsRegistry()
        let first = registry.counter("jobs_total", help: "Jobs.", labels: ["kind": "a", "queue": "q"])
        let second = registry.counter("jobs_total", help: "Jobs.", labels: ["queue": "q", "kind": "a"])
        first.increment()
        second.increment(by: 2)
        #expect(first === second)
        #expect(first.value == 3)
    }

    /// "\r\n" is one Swift Character: its line feed is escaped all the same, so no value can end a sample line.
    @Test func aLineFeedAfterACarriageReturnIsEscapedToo() {
        let registry = MetricsRegistry()
        registry.counter("d_total", help: "D\r\nthings.", labels: ["path": "a\r\nb"]).increment()
        let lines = registry.render().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains("# HELP d_total D\r\\nthings."))
        #expect(lines.contains(#"d_total{path="a\#r\nb"} 1"#))
    }

    @Test func rendersPrometheusTextFormat() {
        let registry = MetricsRegistry()
        registry.counter("b_total", help: "B things.", labels: ["path": "a\"b\\c\nd"]).increment()
        registry.gauge("a_open", help: "Open.").set(3)
        let histogram = registry.histogram("c_seconds", help: "Latency.", buckets: [0.1, 1])
        histogram.observe(0.05)
        histogram.observe(0.5)
        histogram.observe(5)
        let text = registry.render()
        #expect(text == """
            # HELP a_open Open.
            # TYPE a_open gauge
            a_open 3
            # HELP b_total B things.
            # TYPE b_total counter
            b_total{path="a\\"b\\\\c\\nd"} 1
            # HELP c_seconds Latency.
            # TYPE c_seconds histogram
            c_seconds_bucket{le="0.1"} 1
            c_seconds_bucket{le="1"} 2
            c_seconds_bucket{le="+Inf"} 3
            c_seconds_sum 5.55
            c_seconds_count 3

            """)
    }

    @Test func runsCollectHooksBeforeRendering() {
        let registry = MetricsRegistry()
        let gauge = registry.gauge("queue_depth", help: "Depth.")
        registry.onCollect { gauge.set(7) }
        #expect(registry.render().contains("queue_depth 7"))
    }
}
