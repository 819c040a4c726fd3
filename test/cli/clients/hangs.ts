// A client that reaches its session, starts a helper process, and then never ends (nor does the helper).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { post } from "./mcp.ts";

const response = await post(1, "tools/list");
await response.arrayBuffer();
const helper = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
// The test reads the helper's pid to see that the whole process group was ended, and the session to see it deleted.
if (process.env.HANGS_PID_FILE) writeFileSync(process.env.HANGS_PID_FILE, JSON.stringify({ pid: helper.pid, session: process.env.FAULTLINE_SESSION_ID }));
process.on("SIGTERM", () => process.stderr.write("hangs: SIGTERM ignored\n"));
setInterval(() => {}, 1000);
