-- wrk script: a client key setting opt-outs on made-up refs, a new one each request (docs/SECURITY.md, "Opt-outs on
-- made-up refs"). The Bearer key comes from the TI_KEY environment variable.
local key = os.getenv("TI_KEY")
local counter = 0
local threads = 0

setup = function(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

request = function()
  counter = counter + 1
  return wrk.format("PUT", "/v1/authorization/made-up-" .. tid .. "-" .. counter,
    {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"}, '{"status":"denied"}')
end
