import { resourceNotFound, type Handler } from "../../src/mcp/dispatch.ts";
import { RED_PIXEL_PNG } from "./media.ts";

type Contents = { uri: string; mimeType: string; text?: string; blob?: string };

const STATIC: Record<string, { name: string; description: string; read: () => Contents }> = {
  "test://static-text": {
    name: "Static text",
    description: "A fixed text resource.",
    read: () => ({ uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." }),
  },
  "test://static-binary": {
    name: "Static binary",
    description: "A fixed PNG image, base64 in blob.",
    read: () => ({ uri: "test://static-binary", mimeType: "image/png", blob: RED_PIXEL_PNG }),
  },
  "test://watched-resource": {
    name: "Watched resource",
    description: "A resource clients may subscribe to; it never changes, so no update is ever sent.",
    read: () => ({ uri: "test://watched-resource", mimeType: "text/plain", text: "This resource can be watched for updates." }),
  },
};

const TEMPLATE = /^test:\/\/template\/([^/]+)\/data$/;

function readTemplate(uri: string): Contents | undefined {
  const id = TEMPLATE.exec(uri)?.[1];
  if (id === undefined) return undefined;
  return { uri, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) };
}

/** resources/list, resources/templates/list and resources/read for the suites' fixture URIs. */
export const RESOURCE_HANDLERS: Record<string, Handler> = {
  "resources/list": async () => ({
    resources: Object.entries(STATIC).map(([uri, r]) => ({ uri, name: r.name, description: r.description, mimeType: r.read().mimeType })),
  }),
  "resources/templates/list": async () => ({
    resourceTemplates: [
      { uriTemplate: "test://template/{id}/data", name: "Template data", description: "JSON data for any id.", mimeType: "application/json" },
    ],
  }),
  "resources/read": async (params, ctx) => {
    const uri = typeof params.uri === "string" ? params.uri : "";
    const contents = STATIC[uri]?.read() ?? readTemplate(uri);
    // SEP-2164: an unknown URI is an error, never an empty contents array.
    if (!contents) throw resourceNotFound(ctx.era, params.uri);
    return { contents: [contents] };
  },
};

/** completion/complete values for the template's {id} argument. */
export const TEMPLATE_IDS = ["1", "2", "3", "123"];
