import HTTPServer

extension ServiceConfiguration {
    /// The listening host as a URL writes it: an IPv6 address in brackets, so `http://[::1]:8080` and not `::1:8080`.
    var urlHost: String { ListenHost(host)?.urlHost ?? host }
}
