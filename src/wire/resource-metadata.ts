/** RFC 9728 §3.1: the well-known URI of the resource at `path`, inserted between the host and the path. */
export const resourceMetadataUrl = (origin: string, path: string): string => `${origin}/.well-known/oauth-protected-resource${path}`;
