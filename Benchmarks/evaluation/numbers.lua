-- wrk script for the reference route: POST /numbers on http-conformance-target, a JSON body of 32 numbers that
-- Foundation's JSONDecoder decodes (the issue's reference: Hummingbird 2 decoding a trivial 32-number body, with no
-- work behind it). The numbers vary per request, as the evaluation's features do.
local counter = 0

request = function()
  counter = counter + 1
  local values = {}
  for i = 1, 32 do values[i] = tostring((counter * 31 + i * 17) % 10007 / 8) end
  local body = '{"values":[' .. table.concat(values, ",") .. ']}'
  return wrk.format("POST", "/numbers", {["Content-Type"] = "application/json"}, body)
end
