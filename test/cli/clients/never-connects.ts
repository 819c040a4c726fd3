// A client that never reads FAULTLINE_MCP_URL: it exits at once, having sent nothing.
process.stderr.write("never-connects: nothing to do\n");
