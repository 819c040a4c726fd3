/** The RPC surface of a stub; Workers' RPC types lose `unknown`-typed fields, so the promised types are named here. */
export type Remote<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };
