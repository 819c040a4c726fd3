import { cases, legacy, method } from "../../../helpers/decide.ts";

// decide() covers the 2026-07-28 subscriptions/listen; the legacy GET stream (decideGet) is tabled in
// test/scenarios/streams/listen-close.test.ts.
const listen = method("subscriptions/listen");
const ack = { kind: "listen_stream", events: ["with_id"], priming: false, close: "graceful", answer: false };

export default cases("streams.listen_close", [
  {
    name: "graceful: each of `streams` listens is acknowledged and closed with its result, then listens are served as usual",
    params: { variant: "graceful", streams: 2 },
    steps: [{ request: listen, fault: { ...ack, answer: true } }, { request: listen, fault: { ...ack, answer: true } }, { request: listen, fault: undefined }],
  },
  {
    name: "drop and empty: the listen is aborted after its acknowledgement, or sends nothing",
    params: { variant: "drop", streams: 1 },
    steps: [{ request: listen, fault: { ...ack, close: "drop" } }, { request: listen, fault: undefined }],
  },
  {
    name: "empty: a listen with no event at all",
    params: { variant: "empty", streams: 1 },
    steps: [{ request: listen, fault: { ...ack, events: [] } }],
  },
  {
    name: "reconnect_5xx: the first listen is dropped, `refusals` listens get 503, then one closes gracefully",
    params: { variant: "reconnect_5xx", refusals: 2 },
    steps: [
      { request: listen, fault: { ...ack, close: "drop" } },
      { request: listen, fault: { kind: "http_status", status: 503, body: "jsonrpc" } },
      { request: listen, fault: { kind: "http_status", status: 503, body: "jsonrpc" } },
      { request: listen, fault: { ...ack, answer: true } },
      { request: listen, fault: undefined },
    ],
  },
  {
    name: "the variants 2026-07-28 has no meaning for, other methods and the legacy eras decide nothing on a POST",
    params: { variant: "resume_cut_after_id" },
    steps: [{ request: listen, fault: undefined }, { fault: undefined }, { request: legacy(listen), fault: undefined }],
  },
  {
    name: "a tools/call is never faulted, whatever the variant",
    params: { variant: "drop" },
    steps: [{ fault: undefined }, { request: method("tools/list"), fault: undefined }],
  },
]);
