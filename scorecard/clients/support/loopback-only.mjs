// Preloaded into mcp-remote: host names other than localhost fail to resolve, so it reaches nothing beyond loopback.
import dns from "node:dns";
import { isIP } from "node:net";
const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  // localhost, and address literals (its OAuth callback server listens on one), never go to a DNS server.
  if (hostname === "localhost" || isIP(hostname) !== 0) return lookup.call(this, hostname, options, callback);
  const done = typeof options === "function" ? options : callback;
  const error = Object.assign(new Error("getaddrinfo ENOTFOUND " + hostname + " (loopback only in tests)"), { code: "ENOTFOUND", hostname });
  process.nextTick(done, error);
};
