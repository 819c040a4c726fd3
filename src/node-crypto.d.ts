// The one Node API the Worker's code uses: node:crypto's HMAC, native in workerd under nodejs_compat (wrangler.toml).
// Declared here rather than with @types/node, which would let every other Node global into code that runs on Workers.
declare module "node:crypto" {
  interface Hmac {
    update(data: string): Hmac;
    digest(encoding: "hex"): string;
  }
  export function createHmac(algorithm: "sha256", key: Uint8Array): Hmac;
}
