-- A small JSON POST, about the size of an evaluation request's envelope.
wrk.method = "POST"
wrk.body = '{"requestID":"bench-1","operationCategory":"payment","features":{"activeCall":1,"callDurationSeconds":640}}'
wrk.headers["Content-Type"] = "application/json"
