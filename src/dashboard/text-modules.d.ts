// Browser scripts and the stylesheet are bundled as text (`import x from "..." with { type: "text" }`, handled by
// wrangler's esbuild) and served as they are, so the worker sees them as strings.
declare module "*.client.js" {
  const source: string;
  export default source;
}
declare module "*.css" {
  const source: string;
  export default source;
}
declare module "*.svg" {
  const source: string;
  export default source;
}
