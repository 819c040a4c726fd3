// What every adapter shares: the session URL faultline run gives, the era and option flags, and the steps an
// application takes (list tools, call echo, call place_order), each reported on stderr. A failed step is reported and
// the adapter goes on, as an agent shows the error to its model; a failed connect ends it with exit status 1. No
// adapter retries anything itself: what is retried is the library's doing.

export const MCP_URL = process.env.FAULTLINE_MCP_URL ?? "";
if (MCP_URL === "") {
  process.stderr.write("FAULTLINE_MCP_URL is not set: run this adapter under faultline run\n");
  process.exit(2);
}

/** `--NAME VALUE` from argv, else the fallback. */
export function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

/** The era flag, checked against what the adapter offers. */
export function era(offered) {
  const chosen = option("era", offered[0]);
  if (!offered.includes(chosen)) {
    process.stderr.write(`--era ${chosen}: this adapter offers ${offered.join(", ")}\n`);
    process.exit(2);
  }
  return chosen;
}

const message = (error) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** Runs one step of the application; a failure is said and the run goes on. */
export async function step(client, name, call) {
  try {
    await call();
    process.stderr.write(`${client}: ${name} ok\n`);
  } catch (error) {
    process.stderr.write(`${client}: ${name} failed: ${message(error)}\n`);
  }
}

/** The connect: a failure ends the adapter with status 1 (there is no application without it). */
export async function connect(client, call) {
  try {
    return await call();
  } catch (error) {
    process.stderr.write(`${client}: connect failed: ${message(error)}\n`);
    process.exit(1);
  }
}

/**
 * The connect of an application that gave its library an OAuth client (support/oauth.mjs): `attempt` connects afresh
 * (a new transport or client each time). When it fails after the library sent the user to authorize and the browser
 * brought a redirect back, `complete(query)` is the library's documented completion (the code exchange), and `attempt`
 * runs once more. That one authorize-then-reconnect is the application's; any other failure ends the adapter.
 */
export async function connectAuthorized(client, oauth, attempt, complete) {
  return connect(client, async () => {
    try {
      return await attempt();
    } catch (error) {
      const query = oauth.takeCallback();
      if (!query) throw error;
      process.stderr.write(`${client}: connect failed for want of authorization (${message(error)}); completing with the redirect's code, then connecting again\n`);
      await complete(query);
      return await attempt();
    }
  });
}

/** What an adapter's OAuth client says: one line on stderr, as the adapter's steps are. */
export const say = (line) => process.stderr.write(`${line}\n`);

export const ECHO = { text: "hello" };
export const ORDER = { item: "book", quantity: 1 };
