/** faultline/testing: start or reach a Faultline server from your own tests, and assert on its checks. */
export { assertChecksPass, type ChecksSource } from "./assert.ts";
export { connectFaultline, type Faultline, type Session, type SessionOptions } from "./client.ts";
export { startFaultline, type StartedFaultline, type StartOptions } from "./server.ts";
export type { Check } from "../checks/check.ts";
export type { Entry as JournalEntry, ListedSession } from "../cli/api.ts";
