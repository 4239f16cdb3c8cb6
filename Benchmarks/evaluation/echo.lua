-- wrk script for the bare HTTP route: POST / on http-conformance-target, which answers with the body it got. The
-- body is the evaluation benchmark's payment request (evaluate.lua), so this measures what our HTTP server alone
-- costs for an evaluation-sized request and a similar answer: no JSON decoding, no work behind it.
local counter = 0

request = function()
  counter = counter + 1
  local body = '{"requestID":"bench-' .. counter .. '","operationCategory":"payment",' ..
    '"requestedInsights":[{"insightType":"isLikelyBeingCoached","schema":"version1","modelVersion":"current"},' ..
    '{"insightType":"isLikelyBeingCoached","schema":"version1","modelVersion":{"specific":"2026.09.1"}}],' ..
    '"subject":{"accountRef":"acct-' .. (counter % 50000) .. '","deviceRef":"dev-' .. (counter % 70000) ..
    '","counterpartyRef":"payee-' .. (counter % 3000) .. '"},' ..
    '"features":{"activeCall":' .. (counter % 3 == 0 and 1 or 0) .. ',"callDurationSeconds":' .. (counter % 900) ..
    ',"callerKnownToPerson":0,"screenSharingActive":0,"remoteAccessAppActive":0,"hesitationMillis":' .. (counter % 7000) ..
    ',"appSwitchesDuringFlow":' .. (counter % 5) .. ',"sessionDurationSeconds":' .. (30 + counter % 600) ..
    ',"timeOfDayBand":' .. (counter % 4) .. ',"amountBandRelativeToUsual":' .. (counter % 5) .. '}}'
  return wrk.format("POST", "/", {["Authorization"] = "Bearer not-checked-here", ["Content-Type"] = "application/json"}, body)
end
