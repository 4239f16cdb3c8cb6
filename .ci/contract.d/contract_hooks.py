"""schemathesis hooks for .ci/contract (loaded through SCHEMATHESIS_HOOKS).

`Trust-Insights-Override-Evaluation-Error` makes a sandbox evaluation fail on purpose with the named error
(400 contextInvalid, 403 denied, 429 rateLimitExceeded, 503 serverError / notAvailable): a deliberate 503 is not a
server fault and a deliberate 400 is not a rejected valid request, so a valid value of that header is dropped
before sending. Invalid values still go out (they must be 400 invalid-override). The forced answers themselves
are checked by Tests/EndToEndTests/EvaluationAPITests.
"""
import schemathesis

FORCED = {"contextInvalid", "denied", "rateLimitExceeded", "serverError", "notAvailable"}
HEADER = "trust-insights-override-evaluation-error"


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if not case.headers:
        return
    for name in list(case.headers):
        if name.lower() == HEADER and case.headers[name] in FORCED:
            del case.headers[name]
