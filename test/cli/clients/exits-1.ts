// A client that does what calls-once does, then exits 1, as a client that crashes once its work is done.
import "./calls-once.ts";

process.exitCode = 1;
