// Node 22's `node --test test/classify/` runs this directory as a module, i.e. this file; it loads
// every suite here. `node --test "test/**/*.test.ts"` and `deno test test/classify/` skip it.
await import("./table.test.ts");
await import("./property.test.ts");
await import("./surface.test.ts");
await import("./seed-rules.test.ts");
await import("./exchange-shape.test.ts");
await import("./sse.test.ts");
