import HTTPServer
import InsightCore

extension HTTPServerConfiguration {
    init(_ service: ServiceConfiguration) {
        self.init()
        host = service.host
        port = service.port
        eventLoops = service.eventLoops == 0 ? HTTPServerConfiguration.onlineProcessors : service.eventLoops
        maxConnections = service.maxConnections
        maxRequestLineBytes = service.maxRequestLineBytes
        maxHeaderBytes = service.maxHeaderBytes
        maxHeaderCount = service.maxHeaderCount
        defaultBodyLimit = service.maxBodyBytes
        maxBufferedBodyBytes = service.maxBufferedBodyBytes
        requestTimeout = .milliseconds(Int64(service.requestTimeoutSeconds * 1000))
        idleTimeout = .milliseconds(Int64(service.idleTimeoutSeconds * 1000))
        writeTimeout = .milliseconds(Int64(service.writeTimeoutSeconds * 1000))
        sendBufferBytes = service.sendBufferBytes == 0 ? nil : service.sendBufferBytes
        shutdownGracePeriod = .milliseconds(Int64(service.shutdownGraceSeconds * 1000))
        accessLog = service.accessLog
        accessLogRefusedPerSecond = service.accessLogRefusedPerSecond
        requestIDRefusedMarkers = APIKeySecret.tokenPrefixes
        requestIDRefusedLetterAndDigitCount = APIKeySecret.fewestLettersAndDigitsInRandomPart
        // Every answer is per caller, per tenant, and may change at the next request (an opt-out, a label): none is
        // for a cache to keep. The public routes that may be cached say so themselves.
        defaultCacheControl = "no-store"
    }
}
